/**
 * Follows one live session: its transcript and its sub-agents' transcripts, read incrementally
 * as they grow, into a SessionEngine. File events trigger reads at once; a cheap periodic size
 * check is the safety net for platforms where file events get lost.
 */
import { readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type AgentState, initialAgentState } from "../agent";
import type { TranscriptEvent } from "../transcript";
import {
  agentIdOfFile,
  DEFAULT_MAX_LINE_BYTES,
  isNotFound,
  LineReader,
  type LineStats,
  MAIN,
  newLineStats,
  parseLine,
  readSubagentMeta,
  type RecordSource,
  subagentDirOf,
  unreadableReason,
} from "../transcript";
import { type Clock, mtimeSaysChanged, type SafetyPoll, safetyPollFor, sessionFilesWatch, systemClock, WatchedFolder, type WatchFactory } from "../util";
import type { Disposable } from "../util";
import { findRestorePoint } from "./restorePoint";
import { type EngineChange, SessionEngine } from "./sessionEngine";

/** How much of a sub-agent's file is read when restoring into its running call. */
const SUBAGENT_RESTORE_BYTES = 512 * 1024;

export interface FollowerOptions {
  /** Drives the engine's timers (the idle fallback). */
  clock?: Clock;
  /** Drives the safety poll and the trailing reads; defaults to `clock`. */
  pollClock?: Clock;
  idleDelayMs?: number;
  /** Rebuild the state from the current turn at the file's tail instead of reading it all. */
  restore?: boolean;
  /**
   * The safety poll's base interval (util/safetyPoll.ts: backing off while nothing happens). Given,
   * or with a poll clock other than the system's, the follower has a poll of its own; else it joins
   * the process's shared one.
   */
  pollIntervalMs?: number;
  /** A safety poll to join (wins over pollIntervalMs). */
  safetyPoll?: SafetyPoll;
  maxBytesPerRead?: number;
  /** Lines longer than this are dropped and reported (default: the reader's 64 MB). */
  maxLineBytes?: number;
  watch?: WatchFactory;
  /**
   * The owner knows the agent works though its transcript may not say so yet (its status file is
   * busy). The follower also counts its agent as working while a turn is under way or a tool is
   * open; while it works, its files are looked at every second even without file events.
   */
  working?: () => boolean;
  /** Reading failed for a reason other than the file not existing yet. */
  onError?: (err: unknown) => void;
  /** Something was skipped and the card may miss it (a sub-agent entry that is not a readable file). */
  onWarning?: (message: string) => void;
  /**
   * The session's file was deleted, truncated or replaced: everything read from it before is void
   * (events included). Called before the engine's state goes back to its start.
   */
  onReset?: () => void;
}

interface SubagentFollow {
  agentId: string;
  reader: LineReader;
  source: { kind: "subagent"; agentId: string; parentToolId: string | null };
  finished: boolean;
}

export class SessionFollower {
  readonly engine: SessionEngine;
  readonly stats: LineStats = newLineStats();
  private readonly reader: LineReader;
  private readonly subagents = new Map<string, SubagentFollow>();
  /** Sub-agent entries already reported as unreadable: one log line each, not one per pass. */
  private readonly reportedEntries = new Set<string>();
  /** Tool calls seen to end in this session: tells when a sub-agent's file needs no more reading. */
  private readonly endedCalls = new Set<string>();
  private readonly subagentDir: string;
  private subagentDirMtime = -1;
  /**
   * The project folder, admitting only this session's file and its sub-agent folder; the folder
   * may not exist before the session's first prompt. Trailing passes follow a pass that moved
   * (bytes read, complete lines or only part of one; a reset): see util/watchedFolder.ts.
   */
  private readonly folder: WatchedFolder;
  /** This pass read bytes or found a file reset: worth a few more looks. */
  private moved = false;
  private stopped = false;
  private restoring: boolean;
  /** Sub-agents found before the first read completed belong to the restored state. */
  private firstPass = true;
  private readonly clock: Clock;

  constructor(
    readonly path: string,
    private readonly opts: FollowerOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.engine = new SessionEngine({ clock: this.clock, idleDelayMs: opts.idleDelayMs });
    this.engine.onDidChange(({ events }) => {
      for (const event of events) if (event.kind === "toolEnd" && event.parent === null) this.endedCalls.add(event.id);
    });
    this.reader = new LineReader(path, { maxBytesPerRead: opts.maxBytesPerRead, maxLineBytes: opts.maxLineBytes });
    this.subagentDir = subagentDirOf(path);
    this.restoring = opts.restore ?? true;
    const sessionDir = dirname(this.subagentDir);
    this.folder = new WatchedFolder({
      dir: dirname(path),
      accept: (p) => p === path || p === sessionDir || p === this.subagentDir || dirname(p) === this.subagentDir,
      look: () => this.readAll(),
      working: () => this.isWorking(),
      watch: opts.watch ?? sessionFilesWatch,
      clock: opts.pollClock ?? this.clock,
      poll: opts.safetyPoll ?? safetyPollFor(opts.pollClock ?? this.clock, opts.pollIntervalMs),
      onError: (err) => this.opts.onError?.(err),
    });
  }

  get state(): AgentState {
    return this.engine.state;
  }

  /** A turn under way, a tool open (a background agent's too), or the owner says so. */
  private isWorking(): boolean {
    const state = this.engine.state;
    return state.status === "active" || state.activeTools.size > 0 || this.opts.working?.() === true;
  }

  /** The Agent call that runs the sub-agent `agentId` (a hook input's agent_id), once linked. */
  parentOfSubagent(agentId: string): string | undefined {
    return this.engine.interpreter.parentOfSubagent(agentId);
  }

  /** The engine's changes: its state and the events of each batch. */
  onDidChange(listener: (change: EngineChange) => void): Disposable {
    return this.engine.onDidChange(listener);
  }

  /** Starts watching; resolves once what is already on disk has been read. */
  start(): Promise<void> {
    return this.folder.start();
  }

  /** Reads everything new, now. Concurrent calls coalesce into one more pass. */
  pump(): Promise<void> {
    return this.folder.look();
  }

  /** One pass over the session's files; true when it moved. */
  private async readAll(): Promise<boolean> {
    this.moved = false;
    // Sub-agent files first: a sub-agent's last records are on disk before its parent's
    // hand-back, and reading the hand-back first would end its tools as orphaned.
    await this.readSubagents(false);
    await this.readMain();
    await this.readSubagents(true);
    this.firstPass = false;
    return this.moved;
  }

  /** Stops watching. The session itself is not ended: the caller decides (see endSession). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.folder.stop();
  }

  /**
   * Its process died: what it left open ends as interrupted. Reading goes on (a restart with
   * `--resume` may continue the same file).
   */
  processExited(): TranscriptEvent[] {
    return this.engine.processExited();
  }

  /** The session is over: close every tool still open, then stop. */
  async endSession(): Promise<TranscriptEvent[]> {
    await this.stop();
    const events = this.engine.endSession();
    this.engine.dispose();
    return events;
  }

  private async readMain(): Promise<void> {
    if (this.restoring) {
      let point;
      try {
        point = await findRestorePoint(this.path);
      } catch (err) {
        // Not there yet is normal (the CLI creates it at the first prompt); anything else is news.
        if (!isNotFound(err)) this.opts.onError?.(err);
        return;
      }
      this.restoring = false;
      this.reader.seek(point.offset);
      // Background sub-agents launched before the current turn and still running, then the turn.
      this.engine.ingest(point.prelude);
    }
    await this.drain(this.reader, MAIN);
  }

  /** Reads what is new; false when the file is not there (yet, or any more). */
  private async drain(reader: LineReader, source: RecordSource): Promise<boolean> {
    for (;;) {
      const oversizedBefore = reader.oversizedLines;
      const positionBefore = reader.position;
      const result = await reader.read();
      if (result.reset || reader.position !== positionBefore) this.moved = true;
      const oversized = reader.oversizedLines - oversizedBefore;
      if (oversized > 0) {
        this.stats.oversized += oversized;
        this.engine.linesDropped(oversized);
        this.opts.onWarning?.(
          `skipped ${oversized === 1 ? "a line" : `${oversized} lines`} over ${sizeText(this.opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)} in ` +
            `${reader.path}: what it held (often a tool's output) is not known`,
        );
      }
      if (result.reset && source === MAIN) this.startOver();
      if (result.lines.length > 0) {
        const records = [];
        for (const line of result.lines) {
          const record = parseLine(line, this.stats);
          if (record) records.push(record);
        }
        this.engine.ingest(records, source);
      }
      if (!result.more || this.stopped) return !result.missing;
    }
  }

  /**
   * The session's file was deleted or rewritten: as for a follower started afresh, its sub-agents'
   * files are found again and read from their start (the new content may run one of them).
   */
  private startOver(): void {
    this.opts.onReset?.();
    this.subagents.clear();
    this.endedCalls.clear();
    this.subagentDirMtime = -1;
    this.engine.reset(initialAgentState);
  }

  private async readSubagents(discover: boolean): Promise<void> {
    if (discover) await this.discoverSubagents();
    for (const sub of this.subagents.values()) {
      if (sub.finished) continue;
      if (!sub.source.parentToolId) {
        const parent = await readSubagentMeta(sub.reader.path);
        if (parent) {
          sub.source.parentToolId = parent;
          this.engine.interpreter.linkSubagent(sub.agentId, parent);
        }
      }
      try {
        if (!(await this.drain(sub.reader, sub.source))) {
          // It was listed, so it existed: removed since, nothing more will come from it.
          sub.finished = true;
          this.warnOnce(sub.reader.path, `sub-agent file ${sub.reader.path} is gone; stopped reading it`);
          continue;
        }
      } catch (err) {
        // Replaced by a folder, its permissions changed…: the session's own file comes first.
        sub.finished = true;
        this.warnOnce(sub.reader.path, `stopped reading sub-agent file ${sub.reader.path}: ${String(err)}`);
        continue;
      }
      // Once its Agent call has been seen to end, and all its tools with it, nothing in the file
      // can change what the panel shows. (A sub-agent's file can appear before its parent's
      // Agent record is on disk: "not open" alone does not mean "over".)
      const parent = sub.source.parentToolId;
      if (parent && this.endedCalls.has(parent) && !this.engine.interpreter.isOpenOrHasOpenChildren(parent)) sub.finished = true;
    }
  }

  /** Lists the sub-agent folder only when its mtime says an entry may have been added. */
  private async discoverSubagents(): Promise<void> {
    let mtime: number;
    try {
      mtime = (await stat(this.subagentDir)).mtimeMs;
    } catch {
      return;
    }
    if (!mtimeSaysChanged(mtime, this.subagentDirMtime)) return;
    this.subagentDirMtime = mtime;
    const names = await readdir(this.subagentDir).catch(() => [] as string[]);
    for (const name of names) {
      const agentId = agentIdOfFile(name);
      if (!agentId || this.subagents.has(agentId)) continue;
      const path = join(this.subagentDir, name);
      // Not added while unreadable: the next listing looks again (a link may get its target).
      const problem = await unreadableReason(path);
      if (problem) {
        this.warnOnce(path, `skipped sub-agent entry ${path}: ${problem}`);
        continue;
      }
      const parentToolId = await readSubagentMeta(path);
      if (parentToolId) this.engine.interpreter.linkSubagent(agentId, parentToolId);
      const reader = new LineReader(path, { maxBytesPerRead: this.opts.maxBytesPerRead, maxLineBytes: this.opts.maxLineBytes });
      const follow: SubagentFollow = {
        agentId,
        reader,
        source: { kind: "subagent", agentId, parentToolId },
        finished: false,
      };
      if (this.firstPass && (this.opts.restore ?? true)) await this.positionRestoredSubagent(follow);
      this.subagents.set(agentId, follow);
    }
  }

  private warnOnce(path: string, message: string): void {
    if (this.reportedEntries.has(path)) return;
    this.reportedEntries.add(path);
    this.opts.onWarning?.(message);
  }

  /**
   * A sub-agent found while restoring: only one whose Agent call is still running matters, and
   * only its recent records (its tools in flight).
   */
  private async positionRestoredSubagent(follow: SubagentFollow): Promise<void> {
    const parent = follow.source.parentToolId;
    if (parent && !this.engine.interpreter.isOpen(parent)) {
      follow.finished = true;
      return;
    }
    const size = await stat(follow.reader.path).then(
      (s) => s.size,
      () => 0,
    );
    if (size > SUBAGENT_RESTORE_BYTES) await follow.reader.seekToLineAfter(size - SUBAGENT_RESTORE_BYTES);
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}

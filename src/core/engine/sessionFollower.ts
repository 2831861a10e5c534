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
import { type Clock, type FolderChanges, intervalClock, mtimeSaysChanged, safetyPollFor, sessionFilesWatch, systemClock, WatchedFolder } from "../util";
import { type Disposable, localDisk } from "../util";
import { lineStartNear } from "./lineStart";
import { readPrefix } from "./restorePrefix";
import { findRestorePoint } from "./restorePoint";
import { type EngineChange, SessionEngine } from "./sessionEngine";
import type { FollowerOptions } from "./followerOptions";

export type { FollowerOptions } from "./followerOptions";

/** How much of a sub-agent's file is read when restoring into its running call. */
const SUBAGENT_RESTORE_BYTES = 512 * 1024;
/**
 * A pass for the transcript's own writes looks for new sub-agents at most this often (other passes
 * always do): the watch reports a sub-agent folder as it is made, one whose event was lost is found
 * within this. At fifty agents the look (a failing stat: few sessions have one) was one file op in six.
 */
const SUBAGENT_LOOK_EVERY_MS = 1000;

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
  /** When sub-agents were last looked for (interval clock). */
  private subagentsLookedAt = Number.NEGATIVE_INFINITY;
  private readonly intervals: Clock;
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
    this.intervals = intervalClock(opts.pollClock ?? this.clock);
    const sessionDir = dirname(this.subagentDir);
    this.folder = new WatchedFolder({
      dir: dirname(path),
      accept: (p) => p === path || p === sessionDir || p === this.subagentDir || dirname(p) === this.subagentDir,
      look: (changes) => this.readAll(changes),
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
    // What was handed on for another session (or none) is void: this one starts from nothing.
    this.opts.onRead?.({ kind: "reset", session: this.path });
    return this.folder.start();
  }

  /** Reads everything new, now. Concurrent calls coalesce into one more pass. */
  pump(): Promise<void> {
    return this.folder.look();
  }

  /** One pass over the session's files; true when it moved. */
  private async readAll(changes?: FolderChanges): Promise<boolean> {
    this.moved = false;
    const now = this.intervals.now();
    const ownWritesOnly = changes !== undefined && changes.reported.size > 0 && [...changes.reported].every((p) => p === this.path);
    const discover = !ownWritesOnly || now - this.subagentsLookedAt >= SUBAGENT_LOOK_EVERY_MS;
    if (discover) this.subagentsLookedAt = now;
    // Sub-agent files first: a sub-agent's last records are on disk before its parent's
    // hand-back, and reading the hand-back first would end its tools as orphaned.
    await this.readSubagents(false);
    await this.readMain();
    await this.readSubagents(discover);
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
      if (point.offset > 0) await this.handOnPrefix(this.path, MAIN, point.offset);
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
        const events = this.engine.ingest(records, source);
        this.opts.onRead?.({ kind: "records", session: this.path, source, records, events });
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
    this.opts.onRead?.({ kind: "reset", session: this.path });
    this.subagents.clear();
    this.endedCalls.clear();
    this.subagentDirMtime = -1;
    this.subagentsLookedAt = Number.NEGATIVE_INFINITY;
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
      mtime = Number((await localDisk.stat(this.subagentDir)).mtimeMs);
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
    const size = await stat(follow.reader.path).then(
      (s) => s.size,
      () => 0,
    );
    if (parent && !this.engine.interpreter.isOpen(parent)) {
      follow.finished = true;
      await this.handOnPrefix(follow.reader.path, follow.source, size);
      return;
    }
    if (size <= SUBAGENT_RESTORE_BYTES) return;
    // The engine reads on from a whole line near that point; `onRead` gets what lies before it.
    const from = await lineStartNear(follow.reader.path, size - SUBAGENT_RESTORE_BYTES).catch(() => size);
    follow.reader.seek(from);
    await this.handOnPrefix(follow.reader.path, follow.source, from);
  }

  /** A restore skips what lies before its point: read once for `onRead` alone (./restorePrefix.ts). */
  private async handOnPrefix(path: string, source: RecordSource, end: number): Promise<void> {
    const onRead = this.opts.onRead;
    if (!onRead) return;
    const limits = { maxBytesPerRead: this.opts.maxBytesPerRead, maxLineBytes: this.opts.maxLineBytes, stats: this.stats };
    await readPrefix(
      path,
      end,
      limits,
      () => this.stopped,
      (records) => onRead({ kind: "records", session: this.path, source, records }),
    );
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}

/**
 * Follows the `claude` process under each tracked terminal shell, and that process's live status
 * file. Two sources, for two speeds:
 * - the sessions folder is watched, so a status change (e.g. `waiting` for a permission prompt)
 *   is reported within milliseconds of the CLI writing it;
 * - the process table is polled (1 s; 3 s on Windows, where listing costs a PowerShell), which
 *   notices a `claude` starting or dying — SIGKILL leaves its status file behind, so a file is
 *   believed only while its pid is alive and started when the file says.
 * A file event for a pid that is not bound yet (a `claude` just started) triggers a poll at once.
 *
 * A listing is not believed over the kernel: a failed listing skips the poll (states kept), and a
 * shell or bound `claude` merely missing from a listing keeps its state while its pid is alive
 * (`kill(pid, 0)` not ESRCH), for up to MAX_MISSED_LISTINGS polls in a row (then a reused pid
 * cannot keep a dead agent "running" for ever).
 */
import { readdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { type Clock, systemClock, type TimerHandle } from "../util/clock";
import type { FileWatch, WatchFactory } from "../util/fileWatch";
import { descendantsOf, findClaude } from "./claudeProcess";
import { type ProcessInfo, type ProcessTable, systemProcessTable } from "./processTable";
import { sessionsFolderWatch } from "./sessionsWatch";
import { sameStartTime } from "./startTime";
import { type ClaudeStatus, type LiveStatus, readStatusFile, sessionsDir, statusFilePid } from "./statusFile";

/** The `claude` process under a terminal's shell. */
export type ClaudeProcessState =
  /** No `claude` under this shell: not started yet, exited, killed — or the shell itself is gone. */
  | { state: "none" }
  | {
      state: "running";
      pid: number;
      /** From the process table, in the CLI's `procStart` form. */
      startTime?: string;
      /** The rest comes from `<config>/sessions/<pid>.json`, and is undefined until the CLI
       * writes it (or when this CLI version writes none). */
      sessionId?: string;
      status?: LiveStatus;
      /** `idle` with a background Bash task still running (the file said `shell`). */
      backgroundShell?: boolean;
      waitingFor?: string;
      cwd?: string;
      name?: string;
      /** When the CLI last changed `status` (ms since the epoch, the CLI's clock). */
      statusUpdatedAt?: number;
    };

/** `previous` is undefined on a listener's first call. An exit is `running` → `none`. */
export type ProcessStateListener = (state: ClaudeProcessState, previous: ClaudeProcessState | undefined) => void;

export interface MonitorOptions {
  /** `$CLAUDE_CONFIG_DIR` or `~/.claude` (see claudeConfigDir in transcript/projectDir). */
  configDir: string;
  table?: ProcessTable;
  clock?: Clock;
  pollIntervalMs?: number;
  watch?: WatchFactory;
  platform?: NodeJS.Platform;
  /** A listener threw, the folder could not be watched, or the process table could not be read
   * (told once per run of failed polls); the monitor carries on. */
  onError?: (err: unknown) => void;
  /** Whether a pid is alive; default `process.kill(pid, 0)`, where only ESRCH means dead. */
  isAlive?: (pid: number) => boolean;
}

export const DEFAULT_POLL_INTERVAL_MS = 1000;
const WINDOWS_POLL_INTERVAL_MS = 3000;
/** chokidar drops a file's change events for 50 ms after each one, and the CLI can change its
 * status twice within that (busy → waiting took ~75 ms): re-read a few times after an event. */
const TRAILING_READ_MS = 20;
const TRAILING_WINDOW_MS = 70;
/** After a bound file disappears (/exit, terminal closed) the process takes a moment to end. */
const EXIT_CHECKS_MS = [100, 400];
/** Polls in a row a live shell or `claude` may be missing from the listing before it counts as
 * gone (a listing can miss a process: /proc children files are not atomic, ps output races). */
export const MAX_MISSED_LISTINGS = 3;

interface Tracked {
  listeners: Set<ProcessStateListener>;
  state?: ClaudeProcessState;
  bound?: ProcessInfo;
  /** Polls in a row the shell or the bound `claude` was missing from the listing while alive. */
  missed?: number;
}

export class ClaudeProcessMonitor {
  private readonly tracked = new Map<number, Tracked>();
  /** Last good status per bound pid: a torn read keeps it. */
  private readonly statuses = new Map<number, ClaudeStatus>();
  /** Pids whose file events already caused a poll and turned out not to be ours (until the next
   * timed poll), so another window's busy CLI does not make us list processes on every write. */
  private readonly foreign = new Set<number>();
  private readonly trailing = new Map<number, { timer: TimerHandle; until: number }>();
  private readonly exitChecks = new Set<TimerHandle>();
  private readonly clock: Clock;
  private readonly table: ProcessTable;
  private readonly platform: NodeJS.Platform;
  private readonly pollIntervalMs: number;
  private readonly dir: string;
  private watch: FileWatch | undefined;
  private watching: Promise<void> | undefined;
  private pollTimer: TimerHandle | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private stopped = false;
  /** The last listing failed (onError is told once per run of failures). */
  private listingFailed = false;
  private readonly isAlive: (pid: number) => boolean;

  constructor(private readonly opts: MonitorOptions) {
    this.clock = opts.clock ?? systemClock;
    this.platform = opts.platform ?? process.platform;
    this.table = opts.table ?? systemProcessTable(this.platform);
    this.pollIntervalMs = opts.pollIntervalMs ?? (this.platform === "win32" ? WINDOWS_POLL_INTERVAL_MS : DEFAULT_POLL_INTERVAL_MS);
    this.dir = sessionsDir(opts.configDir);
    this.isAlive = opts.isAlive ?? pidAlive;
  }

  /**
   * Follows the `claude` under `shellPid`. The listener is called at once if the state is
   * already known, else after the first look (a few ms), then on every change. Works for any
   * shell: a terminal where the user typed `claude` by hand is reported like a launched one.
   */
  track(shellPid: number, listener: ProcessStateListener): { dispose(): void } {
    if (this.stopped) return { dispose: () => {} };
    let entry = this.tracked.get(shellPid);
    if (!entry) this.tracked.set(shellPid, (entry = { listeners: new Set() }));
    entry.listeners.add(listener);
    if (entry.state) this.call(listener, entry.state, undefined);
    else void this.refresh();
    this.schedulePoll();
    const tracked = entry;
    return {
      dispose: () => {
        tracked.listeners.delete(listener);
        if (tracked.listeners.size === 0 && this.tracked.get(shellPid) === tracked) this.tracked.delete(shellPid);
        if (this.tracked.size === 0) this.cancelPoll();
      },
    };
  }

  /** The last reported state of a tracked shell. */
  current(shellPid: number): ClaudeProcessState | undefined {
    return this.tracked.get(shellPid)?.state;
  }

  /** Looks at the process table and status files now; resolves once listeners were told. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await this.refreshOnce();
      } while (this.refreshAgain && !this.stopped);
    })()
      .catch((err) => this.opts.onError?.(err))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelPoll();
    for (const { timer } of this.trailing.values()) timer.cancel();
    this.trailing.clear();
    for (const t of this.exitChecks) t.cancel();
    this.exitChecks.clear();
    this.tracked.clear();
    await this.watching?.catch(() => {});
    await this.watch?.close().catch(() => {});
    this.watch = undefined;
  }

  // --- polling ---------------------------------------------------------------------------------

  private schedulePoll(): void {
    if (this.pollTimer || this.stopped || this.tracked.size === 0) return;
    this.pollTimer = this.clock.setTimeout(() => {
      this.pollTimer = undefined;
      this.foreign.clear();
      void this.refresh().then(() => this.schedulePoll());
    }, this.pollIntervalMs);
  }

  private cancelPoll(): void {
    this.pollTimer?.cancel();
    this.pollTimer = undefined;
  }

  private async refreshOnce(): Promise<void> {
    const shells = [...this.tracked.keys()];
    if (shells.length === 0) return;
    await this.ensureWatch();
    const withFile = await this.pidsWithStatusFile();
    // Below a process that has a status file only its tools run: no need to look further.
    let processes: ProcessInfo[];
    try {
      processes = await this.table.list(shells, { descend: (p) => !withFile.has(p.pid) });
    } catch (err) {
      // Not "every process is gone": keep what is known, try again at the next poll.
      if (!this.listingFailed) this.opts.onError?.(new Error(`cannot list processes (agents keep their last known state until a listing works): ${errorText(err)}`, { cause: err }));
      this.listingFailed = true;
      return;
    }
    this.listingFailed = false;
    for (const shellPid of shells) {
      const entry = this.tracked.get(shellPid);
      if (!entry || this.stopped) continue;
      await this.bind(entry, shellPid, processes, withFile);
    }
    // Forget the statuses of processes no terminal is bound to any more.
    const bound = new Set([...this.tracked.values()].map((t) => t.bound?.pid));
    for (const pid of this.statuses.keys()) if (!bound.has(pid)) this.statuses.delete(pid);
  }

  private async bind(entry: Tracked, shellPid: number, processes: ProcessInfo[], withFile: Set<number>): Promise<void> {
    if (!processes.some((p) => p.pid === shellPid)) {
      if (this.isAlive(shellPid) && this.missedAgain(entry)) return;
      entry.missed = 0;
      entry.bound = undefined;
      this.emit(entry, { state: "none" });
      return;
    }
    // Read the files of the processes below this shell that have one, then pick.
    const believable = new Map<number, ClaudeStatus>();
    for (const { process: p } of descendantsOf(shellPid, processes)) {
      if (!withFile.has(p.pid)) continue;
      const status = await this.readStatus(p);
      if (status) believable.set(p.pid, status);
    }
    const found = findClaude(shellPid, processes, (p) => believable.has(p.pid));
    const last = entry.bound;
    // The bound claude not listed at all (listed with another parent or start time, it is not ours).
    if (!found && last && !processes.some((p) => p.pid === last.pid) && this.isAlive(last.pid) && this.missedAgain(entry)) return;
    entry.missed = 0;
    entry.bound = found?.process;
    this.emit(entry, found ? this.runningState(found.process) : { state: "none" });
  }

  /** The status file of a live process, if it belongs to that process (not to an earlier
   * process with the same pid). A torn read falls back to the last good one. */
  /** Counts one more listing that missed a live process; true while that is still believable. */
  private missedAgain(entry: Tracked): boolean {
    entry.missed = (entry.missed ?? 0) + 1;
    return entry.missed <= MAX_MISSED_LISTINGS;
  }

  private async readStatus(p: ProcessInfo): Promise<ClaudeStatus | undefined> {
    const read = await readStatusFile(this.opts.configDir, p.pid);
    const previous = this.statuses.get(p.pid);
    let status: ClaudeStatus | undefined;
    if (read.ok) status = read.status;
    else if (read.reason === "torn" || read.reason === "unreadable") status = previous;
    if (!status || !sameStartTime(p.startTime, status.procStart, this.platform)) {
      this.statuses.delete(p.pid);
      return undefined;
    }
    this.statuses.set(p.pid, status);
    return status;
  }

  private runningState(p: ProcessInfo): ClaudeProcessState {
    const s = this.statuses.get(p.pid);
    const state: ClaudeProcessState = { state: "running", pid: p.pid };
    if (p.startTime !== undefined) state.startTime = p.startTime;
    if (s?.sessionId !== undefined) state.sessionId = s.sessionId;
    if (s?.status !== undefined) state.status = s.status;
    if (s?.backgroundShell) state.backgroundShell = true;
    if (s?.waitingFor !== undefined) state.waitingFor = s.waitingFor;
    if (s?.cwd !== undefined) state.cwd = s.cwd;
    if (s?.name !== undefined) state.name = s.name;
    if (s?.statusUpdatedAt !== undefined) state.statusUpdatedAt = s.statusUpdatedAt;
    return state;
  }

  private async pidsWithStatusFile(): Promise<Set<number>> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const pids = new Set<number>();
    for (const name of names) {
      const pid = statusFilePid(name);
      if (pid !== undefined) pids.add(pid);
    }
    return pids;
  }

  // --- the sessions folder ---------------------------------------------------------------------

  /** The folder appears when the first CLI of this config runs: until then each poll retries. */
  private ensureWatch(): Promise<void> {
    if (this.watch || this.stopped) return Promise.resolve();
    this.watching ??= (async () => {
      const isDir = await stat(this.dir).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!isDir || this.stopped) return;
      const accept = (path: string) => dirname(path) === this.dir && statusFilePid(path) !== undefined;
      try {
        const watch = (this.opts.watch ?? sessionsFolderWatch)(this.dir, accept, (path) => this.onFileEvent(path));
        this.watch = watch;
        await watch.ready;
      } catch (err) {
        this.opts.onError?.(err);
      }
    })().finally(() => {
      this.watching = undefined;
    });
    return this.watching;
  }

  private onFileEvent(path: string): void {
    const pid = statusFilePid(path);
    if (pid === undefined || this.stopped) return;
    if (this.shellsBoundTo(pid).length > 0) {
      void this.reread(pid);
      this.extendTrailing(pid);
    } else if (!this.foreign.has(pid)) {
      // Maybe a `claude` just started under one of our shells: look now, not at the next poll.
      this.foreign.add(pid);
      void this.refresh();
    }
  }

  private shellsBoundTo(pid: number): Tracked[] {
    return [...this.tracked.values()].filter((t) => t.bound?.pid === pid);
  }

  private async reread(pid: number): Promise<void> {
    const read = await readStatusFile(this.opts.configDir, pid);
    if (!read.ok && read.reason === "missing") {
      this.statuses.delete(pid);
      this.scheduleExitChecks();
    } else if (read.ok) {
      this.statuses.set(pid, read.status);
    }
    for (const entry of this.shellsBoundTo(pid)) {
      const bound = entry.bound as ProcessInfo;
      const status = this.statuses.get(pid);
      if (status && !sameStartTime(bound.startTime, status.procStart, this.platform)) this.statuses.delete(pid);
      this.emit(entry, this.runningState(bound));
    }
  }

  private extendTrailing(pid: number): void {
    const until = this.clock.now() + TRAILING_WINDOW_MS;
    const pending = this.trailing.get(pid);
    if (pending) {
      pending.until = until;
      return;
    }
    const tick = () => {
      const t = this.trailing.get(pid);
      if (!t || this.stopped) return;
      void this.reread(pid);
      if (this.clock.now() < t.until) t.timer = this.clock.setTimeout(tick, TRAILING_READ_MS);
      else this.trailing.delete(pid);
    };
    this.trailing.set(pid, { timer: this.clock.setTimeout(tick, TRAILING_READ_MS), until });
  }

  private scheduleExitChecks(): void {
    for (const ms of EXIT_CHECKS_MS) {
      const timer = this.clock.setTimeout(() => {
        this.exitChecks.delete(timer);
        void this.refresh();
      }, ms);
      this.exitChecks.add(timer);
    }
  }

  // --- reporting -------------------------------------------------------------------------------

  private emit(entry: Tracked, state: ClaudeProcessState): void {
    const previous = entry.state;
    if (previous && sameState(previous, state)) return;
    entry.state = state;
    for (const listener of [...entry.listeners]) this.call(listener, state, previous);
  }

  private call(listener: ProcessStateListener, state: ClaudeProcessState, previous: ClaudeProcessState | undefined): void {
    try {
      listener(state, previous);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }
}

/** Alive unless the kernel says there is no such process (EPERM: alive, someone else's). */
function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false; // kill(0) / kill(-n) would mean process groups
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sameState(a: ClaudeProcessState, b: ClaudeProcessState): boolean {
  if (a.state !== b.state) return false;
  if (a.state === "none" || b.state === "none") return true;
  return (
    a.pid === b.pid &&
    a.startTime === b.startTime &&
    a.sessionId === b.sessionId &&
    a.status === b.status &&
    a.backgroundShell === b.backgroundShell &&
    a.waitingFor === b.waitingFor &&
    a.cwd === b.cwd &&
    a.name === b.name &&
    a.statusUpdatedAt === b.statusUpdatedAt
  );
}

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
 * This file binds shells to their `claude` (the process table); statusFileWatch.ts watches and reads
 * the status files.
 *
 * A listing is not believed over the kernel: a failed listing skips the poll (states kept), and a
 * shell or bound `claude` merely missing from a listing keeps its state while its pid is alive
 * (`kill(pid, 0)` not ESRCH), for up to MAX_MISSED_LISTINGS polls in a row (then a reused pid
 * cannot keep a dead agent "running" for ever).
 */
import { type Clock, type Disposable, DisposableMap, Emitter, errorMessage, systemClock, type TimerHandle } from "../util";
import type { WatchFactory } from "../util";
import { descendantsOf, findClaude } from "./claudeProcess";
import { type ProcessInfo, type ProcessTable, systemProcessTable } from "./processTable";
import { type ClaudeProcessState, runningState, sameState } from "./processState";
import type { ClaudeStatus } from "./statusFile";
import { StatusFileWatch } from "./statusFileWatch";

export type { ClaudeProcessState } from "./processState";

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
/** After a bound file disappears (/exit, terminal closed) the process takes a moment to end. */
const EXIT_CHECKS_MS = [100, 400];
/** Polls in a row a live shell or `claude` may be missing from the listing before it counts as
 * gone (a listing can miss a process: /proc children files are not atomic, ps output races). */
export const MAX_MISSED_LISTINGS = 3;

interface StateChange {
  state: ClaudeProcessState;
  previous: ClaudeProcessState | undefined;
}

/** A tracked shell: disposing it drops its listeners. */
interface Tracked extends Disposable {
  changed: Emitter<StateChange>;
  state?: ClaudeProcessState;
  bound?: ProcessInfo;
  /** Polls in a row the shell or the bound `claude` was missing from the listing while alive. */
  missed?: number;
}

export class ClaudeProcessMonitor {
  private readonly tracked = new DisposableMap<number, Tracked>();
  private readonly statusFiles: StatusFileWatch;
  /** Pids whose file events already caused a poll and turned out not to be ours (until the next
   * timed poll), so another window's busy CLI does not make us list processes on every write. */
  private readonly foreign = new Set<number>();
  private readonly exitChecks = new Set<TimerHandle>();
  private readonly clock: Clock;
  private readonly table: ProcessTable;
  private readonly platform: NodeJS.Platform;
  private readonly pollIntervalMs: number;
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
    this.isAlive = opts.isAlive ?? pidAlive;
    this.statusFiles = new StatusFileWatch({
      configDir: opts.configDir,
      platform: this.platform,
      clock: this.clock,
      watch: opts.watch,
      onError: opts.onError,
      onFileChanged: (pid, reported) => this.onStatusFile(pid, reported),
    });
  }

  /**
   * Follows the `claude` under `shellPid`. The listener is called at once if the state is
   * already known, else after the first look (a few ms), then on every change. Works for any
   * shell: a terminal where the user typed `claude` by hand is reported like a launched one.
   */
  track(shellPid: number, listener: ProcessStateListener): Disposable {
    if (this.stopped) return { dispose: () => {} };
    const entry = this.tracked.get(shellPid) ?? this.tracked.set(shellPid, this.newTracked());
    const subscription = entry.changed.event(({ state, previous }) => listener(state, previous));
    if (entry.state) {
      try {
        listener(entry.state, undefined);
      } catch (err) {
        this.opts.onError?.(err);
      }
    } else void this.refresh();
    this.schedulePoll();
    return {
      dispose: () => {
        subscription.dispose();
        if (!entry.changed.hasListeners && this.tracked.get(shellPid) === entry) this.tracked.deleteAndDispose(shellPid);
        if (this.tracked.size === 0) this.cancelPoll();
      },
    };
  }

  private newTracked(): Tracked {
    const changed = new Emitter<StateChange>((err) => this.opts.onError?.(err));
    return { changed, dispose: () => changed.dispose() };
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
    for (const t of this.exitChecks) t.cancel();
    this.exitChecks.clear();
    this.tracked.dispose();
    await this.statusFiles.stop();
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
    await this.statusFiles.ensureWatch();
    const withFile = await this.statusFiles.pidsWithFile();
    // Below a process that has a status file only its tools run: no need to look further.
    let processes: ProcessInfo[];
    try {
      processes = await this.table.list(shells, { descend: (p) => !withFile.has(p.pid) });
    } catch (err) {
      // Not "every process is gone": keep what is known, try again at the next poll.
      if (!this.listingFailed)
        this.opts.onError?.(
          new Error(`cannot list processes (agents keep their last known state until a listing works): ${errorMessage(err)}`, { cause: err }),
        );
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
    this.statusFiles.keepOnly(bound);
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
      const status = await this.statusFiles.readFor(p);
      if (status) believable.set(p.pid, status);
    }
    const found = findClaude(shellPid, processes, (p) => believable.has(p.pid));
    const last = entry.bound;
    // The bound claude not listed at all (listed with another parent or start time, it is not ours).
    if (!found && last && !processes.some((p) => p.pid === last.pid) && this.isAlive(last.pid) && this.missedAgain(entry)) return;
    entry.missed = 0;
    entry.bound = found?.process;
    this.emit(entry, found ? runningState(found.process, this.statusFiles.get(found.process.pid)) : { state: "none" });
  }

  /** Counts one more listing that missed a live process; true while that is still believable. */
  private missedAgain(entry: Tracked): boolean {
    entry.missed = (entry.missed ?? 0) + 1;
    return entry.missed <= MAX_MISSED_LISTINGS;
  }

  // --- the status files -----------------------------------------------------------------------

  /**
   * A status file was written or removed (`reported`), or is looked at again just after. True,
   * for more looks, when a bound claude's file was reported (the CLI can change its status twice
   * within the watch's throttle: busy → waiting took ~75 ms) or its state changed.
   */
  private async onStatusFile(pid: number, reported: boolean): Promise<boolean> {
    if (this.stopped) return false;
    const bound = this.shellsBoundTo(pid);
    const first = bound[0]?.bound;
    if (!first) {
      if (!this.foreign.has(pid)) {
        // Maybe a `claude` just started under one of our shells: look now, not at the next poll.
        this.foreign.add(pid);
        void this.refresh();
      }
      return false;
    }
    // Gone: /exit or its terminal closing; the process takes a moment to end.
    if (!(await this.statusFiles.reread(first))) this.scheduleExitChecks();
    let changed = false;
    for (const entry of this.shellsBoundTo(pid)) changed = this.emit(entry, runningState(entry.bound as ProcessInfo, this.statusFiles.get(pid))) || changed;
    return reported || changed;
  }

  private shellsBoundTo(pid: number): Tracked[] {
    return [...this.tracked.values()].filter((t) => t.bound?.pid === pid);
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

  /** Tells the shell's listeners of a new state; false when nothing changed. */
  private emit(entry: Tracked, state: ClaudeProcessState): boolean {
    const previous = entry.state;
    if (previous && sameState(previous, state)) return false;
    entry.state = state;
    entry.changed.fire({ state, previous });
    return true;
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

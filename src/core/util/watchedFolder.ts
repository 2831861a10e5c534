/**
 * A folder watched for the files one reader cares about: "watch a folder + safety poll + coalesced
 * reads", written once with every race it has met (docs/decisions.md, Watching; docs/platform-facts.md):
 * - the folder may not exist yet (a project's first transcript, the CLI's first status file): each
 *   poll looks for it again, and the owner's first look after the watch is in place catches what
 *   was written while it was being set up;
 * - one watch, however many callers ask at once (the setup is shared), and none left running when
 *   stop() comes while it is being set up;
 * - reads never run twice at once: an event during a read asks for one more pass, with the paths
 *   reported meanwhile;
 * - chokidar drops a file's change events for 50 ms after reporting one, and writers (the CLI)
 *   write in bursts, so the last write of a burst would wait for the poll. After a pass that found
 *   something new, cheap extra passes cover that window: a write dropped by the throttle is found
 *   within TRAILING_LOOK_MS, and one after they stop comes more than 50 ms after the last reported
 *   event, so it is reported. Bounded: they stop 65 ms after the last pass that found anything.
 *   A watch that reports every write (`throttleMs: 0`, util/nativeFolderWatch.ts) needs none: at
 *   fifty agents they were four looks (a stat or two each) for every write;
 * - the poll is the safety net where native events get lost (WSL2, network drives, some macOS):
 *   a util/safetyPoll.ts shared with the other folders, backing off while nothing happens; a file
 *   event or a pass that found something brings it back to its base rate, and so does a folder
 *   not there yet (with no watch, the poll is all there is), and so does an owner whose agent
 *   works (`working`): a lost event is then found within a second, however long it was quiet;
 * - a watch dies silently when its folder is deleted (fs.watch reports the folder's own name,
 *   then nothing, even once a folder of that name is made again): the folder reported itself, or
 *   a poll finding it gone or another folder in its place (device + inode), drops the watch, and
 *   the poll (at its base rate while there is no watch) sets it up again on the new folder. A watch
 *   that reported something since the last poll was alive then: its folder is looked at again only
 *   at the next poll after a quiet one, or IDENTITY_CHECK_MAX_MS after the last look (at fifty
 *   agents, one stat in three of the polls' was this; the poll's pass reads the files either way);
 *   the polls of fifty followers of one folder, checked on one wake-up, share one look at it;
 * - intervals are measured on a monotonic clock: after a step back of the wall clock, "found
 *   something within the throttle's span" was true for an hour (a look every 15 ms).
 * Coarse directory mtimes (util/mtime.ts) and which events the watch reports (removals: the
 * WatchFactory given) stay the owner's choice.
 */
import { type Clock, intervalClock, type TimerHandle } from "./clock";
import { localDisk } from "./localDisk";
import { CHOKIDAR_CHANGE_THROTTLE_MS, type FileWatch, type WatchFactory } from "./watchTypes";
import type { SafetyCheck, SafetyPoll } from "./safetyPoll";

/** The gap between trailing passes. */
export const TRAILING_LOOK_MS = 15;
/** The longest a poll goes without checking the watched folder is still the one watched. */
export const IDENTITY_CHECK_MAX_MS = 5000;

/** What a pass is told about the paths below the folder. */
export interface FolderChanges {
  /** The paths the watch reported since the last pass (none for a poll). */
  reported: ReadonlySet<string>;
  /** During trailing passes: the paths of the recent passes that found something. */
  recent: ReadonlySet<string>;
}

export interface WatchedFolderOptions {
  /** The folder to watch; it may not exist yet. */
  dir: string;
  /** Which paths below `dir` matter (folders it rejects are not descended into). */
  accept: (path: string) => boolean;
  /**
   * One pass over what may have changed; never two at once. Resolves true when it found something
   * new (bytes read, a file reset, a status changed): trailing passes follow.
   */
  look: (changes: FolderChanges) => Promise<boolean>;
  watch: WatchFactory;
  /** Drives the trailing passes. */
  clock?: Clock;
  /**
   * The safety net (a retry of the watch, then a pass), from start() to stop(). Omitted: the
   * owner polls, calling ensureWatch() and look().
   */
  poll?: SafetyPoll;
  /**
   * The owner's agent is working (a turn under way, a tool open, its status file busy): the poll
   * looks every base interval instead of backing off. Asked after every pass.
   */
  working?: () => boolean;
  /** A pass threw, or the watch could not be set up; watching carries on (the poll still works). */
  onError?: (err: unknown) => void;
}

export class WatchedFolder {
  private watch: FileWatch | undefined;
  /** The watched folder's device and inode: another folder of the same name is not watched. */
  private watchedIdentity: string | undefined;
  private settingUp: Promise<void> | undefined;
  private safety: SafetyCheck | undefined;
  private trailingTimer: TimerHandle | undefined;
  /** The passes running now; resolves true when one of them found something. */
  private running: Promise<boolean> | undefined;
  private again = false;
  /** Paths reported since the last pass. */
  private readonly pending = new Set<string>();
  /** Paths of the passes that found something, while trailing passes run. */
  private readonly recent = new Set<string>();
  private lastFoundAt = Number.NEGATIVE_INFINITY;
  /** The watch reported something since the last poll's check: it was alive then. */
  private heardSinceCheck = false;
  private identityCheckedAt = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly clock: Clock;

  constructor(private readonly opts: WatchedFolderOptions) {
    this.clock = intervalClock(opts.clock);
  }

  /** Watches, makes the first pass, joins the poll; resolves once that first pass is done. */
  async start(): Promise<void> {
    await this.ensureWatch();
    await this.look();
    if (!this.stopped) this.safety ??= this.opts.poll?.add(() => this.check());
  }

  /** Sets the watch up if the folder exists now (shared by concurrent callers). */
  ensureWatch(): Promise<void> {
    if (this.watch || this.stopped) return Promise.resolve();
    this.settingUp ??= this.setUp().finally(() => {
      this.settingUp = undefined;
    });
    return this.settingUp;
  }

  /** A pass now; concurrent calls coalesce into one more pass. Never rejects. */
  async look(): Promise<void> {
    await this.pass();
  }

  /** Stops watching and polling; resolves once a pass in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.safety?.dispose();
    this.trailingTimer?.cancel();
    // A watch still being set up is closed too, never left running.
    await this.settingUp?.catch(() => undefined);
    await this.watch?.close().catch(() => undefined);
    this.watch = undefined;
    await this.running;
  }

  private async setUp(): Promise<void> {
    const identity = await this.identity();
    if (identity === undefined || this.stopped) return;
    try {
      this.watchedIdentity = identity;
      this.watch = this.opts.watch(this.opts.dir, this.opts.accept, (path) => {
        if (this.stopped) return;
        // The folder itself: deleted, or renamed away (its watch is dead from now on).
        if (path === this.opts.dir) void this.dropDeadWatch();
        else this.heardSinceCheck = true;
        this.pending.add(path);
        this.safety?.heard();
        void this.look();
      });
      await this.watch.ready;
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /**
   * The folder's device and inode, undefined when it is not a folder (or not there). `shared`: the
   * poll's look, which may take the answer of a look at the same folder already on its way (the
   * shared poll checks fifty followers of one folder on one wake-up); a folder's own event asks afresh.
   */
  private async identity(shared = false): Promise<string | undefined> {
    return shared ? sharedFolderIdentity(this.opts.dir) : folderIdentity(this.opts.dir);
  }

  /** Closes the watch if its folder is gone or another one has its name; true if it did. */
  private async dropDeadWatch(sharedLook = false): Promise<boolean> {
    await this.settingUp;
    const watch = this.watch;
    if (!watch || (await this.identity(sharedLook)) === this.watchedIdentity || watch !== this.watch) return false;
    this.watch = undefined;
    this.watchedIdentity = undefined;
    await watch.close().catch(() => undefined);
    return true;
  }

  /**
   * The poll's check: a dead watch dropped, the watch set up (again), then a pass. True (check again
   * at the base rate) when it found something, there is no watch, or the agent works.
   */
  private async check(): Promise<boolean> {
    const now = this.clock.now();
    const alive = this.heardSinceCheck && now - this.identityCheckedAt < IDENTITY_CHECK_MAX_MS;
    this.heardSinceCheck = false;
    if (!alive) this.identityCheckedAt = now;
    const rearmed = !alive && (await this.dropDeadWatch(true));
    await this.ensureWatch();
    const found = await this.pass();
    return found || rearmed || this.watch === undefined || this.isWorking();
  }

  private isWorking(): boolean {
    try {
      return this.opts.working?.() === true;
    } catch {
      return false;
    }
  }

  /** A pass (or one more after the running one); resolves true when it found something. */
  private pass(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.passes().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async passes(): Promise<boolean> {
    let found = false;
    try {
      do {
        this.again = false;
        const reported = new Set(this.pending);
        this.pending.clear();
        if (await this.opts.look({ reported, recent: new Set(this.recent) })) {
          found = true;
          for (const path of reported) this.recent.add(path);
        }
      } while (this.again && !this.stopped);
      if (found) this.lastFoundAt = this.clock.now();
      // A look that found something, or found the agent at work (a file event, the owner's look
      // when its status file moved): the poll is back to its base rate.
      if (found || this.isWorking()) this.safety?.poke();
      // A watch that reports every write (throttleMs 0) needs none: each look after the first would find nothing.
      const throttleMs = this.watch?.throttleMs ?? CHOKIDAR_CHANGE_THROTTLE_MS;
      const throttled = throttleMs > 0 && this.clock.now() - this.lastFoundAt <= throttleMs + TRAILING_LOOK_MS;
      if (throttled && !this.stopped) {
        this.trailingTimer?.cancel();
        this.trailingTimer = this.clock.setTimeout(() => void this.look(), TRAILING_LOOK_MS);
      } else {
        this.recent.clear();
      }
    } catch (err) {
      this.opts.onError?.(err);
    }
    return found;
  }
}

function folderIdentity(dir: string): Promise<string | undefined> {
  return localDisk.stat(dir).then(
    (s) => (s.isDirectory() ? `${s.dev}:${s.ino}` : undefined),
    () => undefined,
  );
}

/** The polls' looks at a folder's identity on their way, by folder: one stat for all who ask meanwhile. */
const identitiesInFlight = new Map<string, Promise<string | undefined>>();

function sharedFolderIdentity(dir: string): Promise<string | undefined> {
  let looking = identitiesInFlight.get(dir);
  if (!looking) {
    looking = folderIdentity(dir).finally(() => identitiesInFlight.delete(dir));
    identitiesInFlight.set(dir, looking);
  }
  return looking;
}

/**
 * Notices new transcript files in a project folder (a `/clear` starts one). Native folder events
 * announce them at once; the safety net lists the folder again only when its mtime changes, so a
 * folder of thousands of transcripts is not re-listed every second.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type Clock, systemClock, type TimerHandle } from "../util/clock";
import { chokidarWatch, type FileWatch, type WatchFactory } from "../util/fileWatch";
import { mtimeSaysChanged } from "../util/mtime";

export interface ProjectFolderWatcherOptions {
  clock?: Clock;
  pollIntervalMs?: number;
  watch?: WatchFactory;
}

const TRANSCRIPT = /^[^/\\]+\.jsonl$/;

export class ProjectFolderWatcher {
  private readonly known = new Set<string>();
  private watch: FileWatch | undefined;
  private timer: TimerHandle | undefined;
  private mtime = -1;
  private stopped = false;
  private readonly clock: Clock;

  constructor(
    readonly dir: string,
    private readonly onNewTranscript: (path: string) => void,
    private readonly opts: ProjectFolderWatcherOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
  }

  /** Files present at start are known, not new. */
  async start(): Promise<void> {
    await this.rescan(false);
    await this.ensureWatch();
    this.schedule();
  }

  /** The folder appears with the workspace's first transcript; until then the poll retries. */
  private async ensureWatch(): Promise<void> {
    if (this.watch || this.stopped) return;
    if (!(await stat(this.dir).then((s) => s.isDirectory(), () => false))) return;
    const accept = (path: string) => dirname(path) === this.dir && TRANSCRIPT.test(basename(path));
    if (this.stopped || this.watch) return; // stopped (or watching) while the folder was checked
    const watch = (this.opts.watch ?? chokidarWatch)(this.dir, accept, (path) => this.seen(basename(path), true));
    this.watch = watch;
    await watch.ready;
    if (this.stopped) await watch.close();
    // Anything created while the watch was being set up is caught by one more look.
    await this.check();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.watch?.close();
  }

  /** Checks the folder now (the poll calls this; so can a caller that has reason to). */
  async check(): Promise<void> {
    let mtime: number;
    try {
      mtime = (await stat(this.dir)).mtimeMs;
    } catch {
      return; // The folder appears with the first transcript in this workspace.
    }
    if (mtimeSaysChanged(mtime, this.mtime)) await this.rescan(true);
  }

  private async rescan(announce: boolean): Promise<void> {
    try {
      this.mtime = (await stat(this.dir)).mtimeMs;
      for (const name of await readdir(this.dir)) this.seen(name, announce);
    } catch {
      // Missing folder: nothing to know yet.
    }
  }

  private seen(name: string, announce: boolean): void {
    if (this.stopped || !TRANSCRIPT.test(name) || this.known.has(name)) return;
    this.known.add(name);
    if (announce) this.onNewTranscript(join(this.dir, name));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      void this.ensureWatch()
        .then(() => this.check())
        .then(() => this.schedule());
    }, this.opts.pollIntervalMs ?? 2000);
  }
}

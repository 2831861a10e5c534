/**
 * Notices new transcript files in a project folder (a `/clear` starts one). Native folder events
 * announce them at once; the safety net lists the folder again only when its mtime changes, so a
 * folder of thousands of transcripts is not re-listed every second.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import {
  type Clock,
  Emitter,
  folderEntriesWatch,
  mtimeSaysChanged,
  type SafetyPoll,
  safetyPollFor,
  systemClock,
  WatchedFolder,
  type WatchFactory,
} from "../util";

export interface ProjectFolderWatcherOptions {
  clock?: Clock;
  /** The safety poll's base interval: given, the watcher has a poll of its own (see util/safetyPoll.ts). */
  pollIntervalMs?: number;
  /** A safety poll to join (wins over pollIntervalMs). */
  safetyPoll?: SafetyPoll;
  watch?: WatchFactory;
  /**
   * An agent of this folder is working: the folder is looked at every second even without events
   * (a `/clear` there must be found within one), else the look backs off while nothing happens.
   */
  working?: () => boolean;
}

const TRANSCRIPT = /^[^/\\]+\.jsonl$/;

export class ProjectFolderWatcher {
  private readonly known = new Set<string>();
  private mtime = -1;
  private stopped = false;
  private readonly folder: WatchedFolder;
  private readonly added = new Emitter<string>();
  /** A transcript file appeared (its path); the ones there at start() are not new. */
  readonly onDidAddTranscript = this.added.event;

  constructor(
    readonly dir: string,
    opts: ProjectFolderWatcherOptions = {},
  ) {
    this.folder = new WatchedFolder({
      dir,
      accept: (path) => dirname(path) === dir && TRANSCRIPT.test(basename(path)),
      // Reported files are announced as they are; without any (a poll, the look after the watch
      // is in place, an event that named no file), the folder's mtime says whether to list it again.
      // True when it announced a transcript: a look that finds something resets the poll's back-off.
      look: async ({ reported }) => {
        let found = reported.size === 0 || reported.has(dir) ? await this.check() : false;
        for (const path of reported) if (path !== dir && this.seen(basename(path), true)) found = true;
        return found;
      },
      // The folder's own entries, one handle: chokidar would watch every transcript in it.
      watch: opts.watch ?? folderEntriesWatch,
      clock: opts.clock,
      working: opts.working,
      poll: opts.safetyPoll ?? safetyPollFor(opts.clock ?? systemClock, opts.pollIntervalMs),
    });
  }

  /** Files present at start are known, not new. */
  async start(): Promise<void> {
    await this.rescan(false);
    await this.folder.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.folder.stop();
    this.added.dispose();
  }

  /** Checks the folder now (the poll does; so can a caller that has reason to); true when it announced a transcript. */
  async check(): Promise<boolean> {
    let mtime: number;
    try {
      mtime = (await stat(this.dir)).mtimeMs;
    } catch {
      return false; // The folder appears with the first transcript in this workspace.
    }
    return mtimeSaysChanged(mtime, this.mtime) ? this.rescan(true) : false;
  }

  private async rescan(announce: boolean): Promise<boolean> {
    let found = false;
    try {
      this.mtime = (await stat(this.dir)).mtimeMs;
      for (const name of await readdir(this.dir)) if (this.seen(name, announce)) found = true;
    } catch {
      // Missing folder: nothing to know yet.
    }
    return found;
  }

  /** True when `name` is a transcript not known before. */
  private seen(name: string, announce: boolean): boolean {
    if (this.stopped || !TRANSCRIPT.test(name) || this.known.has(name)) return false;
    this.known.add(name);
    if (announce) this.added.fire(join(this.dir, name));
    return true;
  }
}

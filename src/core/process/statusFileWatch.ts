/**
 * The CLI's live status files, `<config>/sessions/<pid>.json`: the folder watched (a
 * util/watchedFolder.ts: it appears when the first CLI of this config runs, and a status can
 * change twice within 75 ms — busy → waiting — and every write is reported), and the last good status per pid, so a torn read (the CLI
 * rewrites in place) keeps it. A status is believed only for the process that wrote it: same
 * pid, same start time (a SIGKILLed claude leaves its file behind, and pids are reused).
 */
import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Clock } from "../util";
import { nativeFolderWatch, WatchedFolder, type WatchFactory } from "../util";
import type { ProcessInfo } from "./processTable";
import { sameStartTime } from "./startTime";
import { type ClaudeStatus, readStatusFile, sessionsDir, statusFilePid, statusFileStamp } from "./statusFile";

/**
 * The sessions folder's own entries, every write and removal reported at once (the CLI deletes its
 * status file on /exit and when its terminal closes, the quickest sign that it is going away). Not
 * chokidar: it re-read the folder (an lstat per status file) at every write in it (util/nativeFolderWatch.ts).
 */
export const sessionsFolderWatch = nativeFolderWatch({ depth: 0 });

export interface StatusFileWatchOptions {
  configDir: string;
  platform: NodeJS.Platform;
  clock: Clock;
  watch?: WatchFactory;
  onError?: (err: unknown) => void;
  /**
   * The file of `pid` was written or removed (`reported` by the watch), or is looked at again just
   * after: true when that matters to its owner (then trailing re-reads follow, for changes the
   * watch's throttle drops). Never two calls at once.
   */
  onFileChanged: (pid: number, reported: boolean) => Promise<boolean>;
}

export class StatusFileWatch {
  /** Last good status per pid: a torn read keeps it. */
  private readonly statuses = new Map<number, ClaudeStatus>();
  /**
   * The stamp (statusFile.ts statusFileStamp) of the file each status was read from: the process
   * poll reads every bound file each second, and at fifty agents re-reading and parsing unchanged
   * files was fifty reads a second; a file with the same stamp is not read again.
   */
  private readonly stamps = new Map<number, string>();
  private readonly folder: WatchedFolder;

  constructor(private readonly opts: StatusFileWatchOptions) {
    const dir = sessionsDir(opts.configDir);
    this.folder = new WatchedFolder({
      dir,
      accept: (path) => dirname(path) === dir && statusFilePid(path) !== undefined,
      look: async ({ reported, recent }) => {
        let moved = false;
        for (const path of new Set([...reported, ...recent])) {
          const pid = statusFilePid(path);
          if (pid !== undefined && (await opts.onFileChanged(pid, reported.has(path)))) moved = true;
        }
        return moved;
      },
      watch: opts.watch ?? sessionsFolderWatch,
      clock: opts.clock,
      // No poll of its own: the process poll reads every file it needs (and calls ensureWatch).
      onError: opts.onError,
    });
  }

  /** The folder appears when the first CLI of this config runs: until then each call retries. */
  ensureWatch(): Promise<void> {
    return this.folder.ensureWatch();
  }

  stop(): Promise<void> {
    return this.folder.stop();
  }

  /** The pids that have a status file now. */
  async pidsWithFile(): Promise<Set<number>> {
    const names = await readdir(sessionsDir(this.opts.configDir)).catch(() => [] as string[]);
    const pids = new Set<number>();
    for (const name of names) {
      const pid = statusFilePid(name);
      if (pid !== undefined) pids.add(pid);
    }
    return pids;
  }

  /** The last status read for `pid`, if any is believed. */
  get(pid: number): ClaudeStatus | undefined {
    return this.statuses.get(pid);
  }

  /**
   * The status file of a live process, if it belongs to that process (not to an earlier process
   * with the same pid). A torn read falls back to the last good one.
   */
  async readFor(p: ProcessInfo): Promise<ClaudeStatus | undefined> {
    // Stamped before the read: a write in between leaves a stamp that differs next time.
    const stamp = await statusFileStamp(this.opts.configDir, p.pid);
    const previous = this.statuses.get(p.pid);
    let status: ClaudeStatus | undefined;
    if (previous && stamp !== undefined && this.stamps.get(p.pid) === stamp) status = previous;
    else {
      const read = await readStatusFile(this.opts.configDir, p.pid);
      if (read.ok && stamp !== undefined) this.stamps.set(p.pid, stamp);
      else this.stamps.delete(p.pid);
      if (read.ok) status = read.status;
      else if (read.reason === "torn" || read.reason === "unreadable") status = previous;
    }
    if (!status || !this.belongsTo(status, p)) {
      this.forget(p.pid);
      return undefined;
    }
    this.statuses.set(p.pid, status);
    return status;
  }

  /**
   * Reads `p`'s file again after it was reported: false when the file is gone (the CLI is exiting).
   * A torn read keeps the last good status; one from an earlier process with this pid is dropped.
   */
  async reread(p: ProcessInfo): Promise<boolean> {
    // Written since its stamp: the poll's next read stamps it again.
    this.stamps.delete(p.pid);
    const read = await readStatusFile(this.opts.configDir, p.pid);
    if (!read.ok && read.reason === "missing") {
      this.forget(p.pid);
      return false;
    }
    if (read.ok) this.statuses.set(p.pid, read.status);
    const status = this.statuses.get(p.pid);
    if (status && !this.belongsTo(status, p)) this.forget(p.pid);
    return true;
  }

  /** Forgets the statuses of processes no terminal is bound to any more. */
  keepOnly(pids: ReadonlySet<number | undefined>): void {
    for (const pid of this.statuses.keys()) if (!pids.has(pid)) this.forget(pid);
  }

  private forget(pid: number): void {
    this.statuses.delete(pid);
    this.stamps.delete(pid);
  }

  private belongsTo(status: ClaudeStatus, p: ProcessInfo): boolean {
    return sameStartTime(p.startTime, status.procStart, this.opts.platform);
  }
}

/**
 * A folder and the sub-folders its owner accepts, each watched by one `fs.watch` of its own, every
 * entry event reported at once: no re-reading of a folder on its events, no handle per file.
 *
 * Why not chokidar for the folders where agents write all the time (a project folder, the status
 * files' folder): at every event in a folder chokidar reads the whole folder again (an lstat per
 * entry) to learn what was added, and re-reads it as soon as the last read ends while events keep
 * coming. At fifty agents that was ~27 re-reads a second of a project folder of fifty transcripts
 * and ~13 of the status files' folder, 1,300 + 670 lstats a second, the host's largest cost
 * (bench/fifty.ts). `fs.watch` of a folder names the entry of each event (Linux, macOS, Windows):
 * a change (a write) or a rename (created, deleted, renamed). A rename may have made a folder: only
 * then is the entry looked at (one stat), and a folder the owner accepts is watched in turn, its
 * entries reported (they may have been written before its watch was in place).
 *
 * A watch of the root whose folder is deleted reports the root itself (Linux names the folder in its
 * last event): its owner drops it and arms another (util/watchedFolder.ts). Events carry no throttle
 * (`throttleMs: 0`): every write is reported, so no trailing look is needed.
 */
import { type FSWatcher, watch } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import type { FileWatch, WatchFactory } from "./watchTypes";

export interface FolderWatchOptions {
  /** Levels below the root watched (0: the root's own entries only). */
  depth: number;
  /**
   * Folders watched at most per root (default: no limit). A tree someone else fills (an agent's
   * worktree) could make a folder per inotify watch the user has (max_user_watches), and every other
   * watcher on the machine would go blind: past the limit no more folders are watched, and `onFull`
   * is told once with the root.
   */
  maxFolders?: number;
  onFull?: (root: string) => void;
  /**
   * Not into a link to a folder (default: followed). An agent's link in its worktree to `~` or `/`
   * would have the whole of it watched, and its changes told as the worktree's.
   */
  noLinks?: boolean;
}

/**
 * Watches `root` and, down to `opts.depth` levels below it, the folders `accept` admits. Throws when
 * `root` cannot be watched (missing, not a folder): its owner's poll retries.
 */
export function nativeFolderWatch(opts: FolderWatchOptions): WatchFactory {
  return (root, accept, onChange) => new FolderTree(root, accept, onChange, opts).start();
}

class FolderTree {
  /** Watched folders (the root first): their level below the root, their inode when known (one made again is another). */
  private readonly watched = new Map<string, { watcher: FSWatcher; level: number; ino?: number }>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly accept: (path: string) => boolean,
    private readonly onChange: (path: string) => void,
    private readonly opts: FolderWatchOptions,
  ) {}

  /** The folder limit was reached (told once). */
  private full = false;

  private get depth(): number {
    return this.opts.depth;
  }

  start(): FileWatch & { rescan: () => Promise<void> } {
    this.watchFolder(this.root, 0, true);
    return {
      // The folders already there are watched without reporting their entries (as chokidar's ignoreInitial).
      ready: this.scan(this.root, 0, false),
      close: async () => this.close(),
      throttleMs: 0,
      rescan: () => this.scan(this.root, 0, false),
    };
  }

  private close(): void {
    this.closed = true;
    for (const { watcher } of this.watched.values()) watcher.close();
    this.watched.clear();
  }

  private watchFolder(dir: string, level: number, isRoot = false, ino?: number): void {
    if (this.closed || this.watched.has(dir)) return;
    if (this.watched.size >= (this.opts.maxFolders ?? Infinity)) {
      if (!this.full) this.opts.onFull?.(this.root);
      this.full = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (event, name) => this.onEvent(dir, level, event, name?.toString() ?? null));
    } catch (err) {
      if (isRoot) throw err;
      return; // gone again already: its parent's event says so
    }
    // A folder deleted under its watch, a watch limit reached: the poll still works (the root told, for its owner to look).
    watcher.on("error", () => (isRoot ? this.onChange(dir) : this.unwatch(dir)));
    this.watched.set(dir, { watcher, level, ino });
  }

  private onEvent(dir: string, level: number, event: string, name: string | null): void {
    if (this.closed) return;
    // No name (some platforms), or the folder naming itself (deleted, renamed away): tell the folder.
    if (name === null || (event === "rename" && name === basename(dir))) {
      if (dir === this.root) this.onChange(dir);
      else {
        // Its watch is dead (even if a folder of that name, maybe with the same inode, is there again).
        if (name !== null) this.unwatch(dir);
        void this.settle(dir);
      }
      if (name === null) return;
    }
    const path = join(dir, name);
    if (!this.accept(path)) return;
    this.onChange(path);
    // A rename may have made (or removed) a folder; a write is only a write.
    if (event === "rename" && level < this.depth) void this.settle(path);
  }

  /** After a rename of `path`: a folder the owner accepts is watched, its entries reported; one gone is not. */
  private async settle(path: string): Promise<void> {
    const ino = await inodeOfFolder(path, this.opts.noLinks);
    if (this.closed) return;
    const known = this.watched.get(path);
    if (known && known.ino === ino) return; // still the folder it was
    // Gone, or another folder in its place (its watch died with the old one).
    this.unwatch(path);
    const level = this.levelOf(path);
    if (ino === undefined || level === undefined || level > this.depth) return;
    this.watchFolder(path, level, false, ino);
    await this.scan(path, level, true);
  }

  /** Watches the accepted folders below `dir` not watched yet; reports what it finds when asked. */
  private async scan(dir: string, level: number, report: boolean): Promise<void> {
    if (this.closed) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (this.closed) return;
      const path = join(dir, entry.name);
      if (!this.accept(path)) continue;
      if (report) this.onChange(path);
      if (!entry.isDirectory() || level + 1 > this.depth || this.watched.has(path)) continue;
      this.watchFolder(path, level + 1, false, await inodeOfFolder(path, this.opts.noLinks));
      await this.scan(path, level + 1, report);
    }
  }

  /** The folder's level below the root, from its parent's (undefined when its parent is not watched). */
  private levelOf(path: string): number | undefined {
    const parent = path.slice(0, path.lastIndexOf(sep)) || sep;
    const known = this.watched.get(parent);
    return known === undefined ? undefined : known.level + 1;
  }

  /** Stops watching `dir` and every folder below it (the root stays: its owner decides). */
  private unwatch(dir: string): void {
    for (const [path, { watcher }] of this.watched) {
      if (path === this.root || (path !== dir && !path.startsWith(dir + sep))) continue;
      watcher.close();
      this.watched.delete(path);
    }
  }
}

/** The inode of the folder at `path`; undefined when it is not a folder (or not there). */
async function inodeOfFolder(path: string, noLinks = false): Promise<number | undefined> {
  return (noLinks ? lstat : stat)(path).then(
    (s) => (s.isDirectory() ? s.ino : undefined),
    () => undefined,
  );
}

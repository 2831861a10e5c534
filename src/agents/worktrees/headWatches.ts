/**
 * The HEAD files' watches, one per file however many agents work in its repository: fifty agents in
 * one checkout held fifty watches of its .git folder, each woken by every write in it (the index at
 * every git command). HEAD is replaced by a rename on every switch: its folder is watched, not the file.
 */
import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";

export interface HeadWatch {
  close(): void;
}

type WatchFolder = (folder: string, onName: (name: string | null) => void) => FSWatcher;

const watchFolder: WatchFolder = (folder, onName) => watch(folder, { persistent: false }, (_event, name) => onName(name?.toString() ?? null));

export class HeadWatches {
  private readonly byPath = new Map<string, { watcher: FSWatcher; listeners: Set<() => void> }>();

  /** `watchFolder`: how a folder is watched (tests count them). */
  constructor(private readonly watchOf: WatchFolder = watchFolder) {}

  /** Calls `onChange` when the HEAD file at `path` may have changed; undefined where no watch can be had (the next look reads it). */
  watch(path: string, onChange: () => void): HeadWatch | undefined {
    let shared = this.byPath.get(path);
    if (!shared) {
      const listeners = new Set<() => void>();
      const file = basename(path);
      try {
        const watcher = this.watchOf(dirname(path), (name) => {
          if (name === file) for (const listener of [...listeners]) listener();
        });
        // A folder gone, a full inotify table: the watch ends; the next one asked for is new.
        watcher.on("error", () => {
          watcher.close();
          if (this.byPath.get(path)?.watcher === watcher) this.byPath.delete(path);
        });
        shared = { watcher, listeners };
      } catch {
        return undefined;
      }
      this.byPath.set(path, shared);
    }
    const mine = shared;
    const listener = () => onChange();
    mine.listeners.add(listener);
    return {
      close: () => {
        if (!mine.listeners.delete(listener) || mine.listeners.size > 0) return;
        mine.watcher.close();
        if (this.byPath.get(path) === mine) this.byPath.delete(path);
      },
    };
  }

  /** How many folders are watched now. */
  get size(): number {
    return this.byPath.size;
  }

  dispose(): void {
    for (const { watcher } of this.byPath.values()) watcher.close();
    this.byPath.clear();
  }
}

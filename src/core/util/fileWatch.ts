/**
 * File-change notification as a replaceable dependency. The default uses chokidar (native events,
 * no polling); callers always add a cheap size/mtime check of their own as a safety net, because
 * native events are missed on some platforms (WSL2, network drives, some macOS setups).
 *
 * A folder is watched rather than single files: a file that does not exist yet, or that is
 * replaced, is then still seen (watching a missing file directly proved unreliable).
 */
import { watch as watchFolder } from "node:fs";
import { basename, join } from "node:path";
import chokidar from "chokidar";
import { sharedPerFolder } from "./sharedWatch";

export interface FileWatch {
  /** Resolves once the watch is in place: changes before that may not be reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `root` (an existing folder) and calls `onChange` for added or changed entries below it
 * that `accept` admits; folders that `accept` rejects are not descended into.
 */
export type WatchFactory = (root: string, accept: (path: string) => boolean, onChange: (path: string) => void) => FileWatch;

type WatchEvent = "add" | "change" | "addDir" | "unlink";

/**
 * chokidar on a folder, filtered to the paths `accept` wants, reporting the given events.
 * `atomic` (chokidar's default) holds a removal back 100 ms and reports it as a change if the path
 * comes back within that time (editors' atomic saves); off, a removal is reported at once.
 */
export function chokidarFolderWatch(opts: { depth: number; events: readonly WatchEvent[]; atomic?: boolean }): WatchFactory {
  return (root, accept, onChange) => {
    const watcher = chokidar.watch(root, {
      ignoreInitial: true,
      depth: opts.depth,
      ignored: (path: string) => path !== root && !accept(path),
      // Never wait for writes to settle: a transcript is appended to all the time and latency matters.
      awaitWriteFinish: false,
      atomic: opts.atomic ?? true,
    });
    const report = (path: string) => {
      if (accept(path)) onChange(path);
    };
    for (const event of opts.events) watcher.on(event, report);
    // A watch error (e.g. inotify limit reached) must not crash anyone; the poll still works.
    watcher.on("error", () => {});
    const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    return { ready, close: () => watcher.close() };
  };
}

export const chokidarWatch: WatchFactory = chokidarFolderWatch({ depth: 3, events: ["add", "change", "addDir"] });

/**
 * For a session's files: removals too, at once (a deleted transcript resets its card without
 * waiting for the poll). One deleted and created again in quick succession may come as one change:
 * telling that from growth is the reader's job (lineReader.ts). One watch per project folder,
 * however many sessions in it are followed (sharedWatch.ts).
 */
export const sessionFilesWatch: WatchFactory = sharedPerFolder(chokidarFolderWatch({ depth: 3, events: ["add", "change", "addDir", "unlink"], atomic: false }));

/**
 * The entries of one folder coming and going (created, deleted, renamed), from one `fs.watch` of
 * the folder itself: for a folder whose new files are what matters (a project folder, for /clear).
 * chokidar watches every file it admits, each with a handle of its own: a project folder of 2,000
 * sessions held 2,000 of them, one more per session (found by the soak bench: FSEventWrap +20 an
 * hour). Without a name in the event (some platforms), the folder itself is reported, and so it is
 * when the event names the folder (Linux, as the folder is deleted: the watch is dead from then on,
 * and its owner sets up another, util/watchedFolder.ts). `accept` is asked about each other name;
 * nothing below the folder is watched.
 */
export const folderEntriesWatch: WatchFactory = (root, accept, onChange) => {
  const self = basename(root);
  const watcher = watchFolder(root, { persistent: true }, (event, name) => {
    if (event !== "rename") return;
    if (!name || name.toString() === self) onChange(root);
    else if (accept(join(root, name.toString()))) onChange(join(root, name.toString()));
  });
  // The folder deleted, a watch limit reached: the poll still works.
  watcher.on("error", () => watcher.close());
  return { ready: Promise.resolve(), close: async () => watcher.close() };
};

export const noWatch: WatchFactory = () => ({ ready: Promise.resolve(), close: async () => {} });

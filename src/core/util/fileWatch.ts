/**
 * File-change notification as a replaceable dependency. The defaults use `fs.watch` (native events,
 * no polling); callers always add a cheap size/mtime check of their own as a safety net, because
 * native events are missed on some platforms (WSL2, network drives, some macOS setups).
 *
 * A folder is watched rather than single files: a file that does not exist yet, or that is
 * replaced, is then still seen (watching a missing file directly proved unreliable).
 */
import { watch as watchFolder } from "node:fs";
import { basename, join } from "node:path";
import { nativeFolderWatch } from "./nativeFolderWatch";
import { sharedPerFolder } from "./sharedWatch";
import type { WatchFactory } from "./watchTypes";

export { CHOKIDAR_CHANGE_THROTTLE_MS, type FileWatch, type WatchFactory } from "./watchTypes";

/**
 * For a session's files: every write, and removals too, at once (a deleted transcript resets its
 * card without waiting for the poll). One deleted and created again in quick succession may come as
 * one change: telling that from growth is the reader's job (lineReader.ts). One watch per project
 * folder, however many sessions in it are followed (sharedWatch.ts); `fs.watch` per folder, not
 * chokidar, which re-read the project folder at every write in it (nativeFolderWatch.ts).
 */
export const sessionFilesWatch: WatchFactory = sharedPerFolder(nativeFolderWatch({ depth: 3 }));

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

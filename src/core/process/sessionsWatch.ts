/**
 * chokidar on the sessions folder. Unlike util/fileWatch's default it also reports removals: the
 * CLI deletes its status file on /exit and when its terminal closes, which is the quickest sign
 * that it is going away.
 */
import chokidar from "chokidar";
import type { WatchFactory } from "../util/fileWatch";

export const sessionsFolderWatch: WatchFactory = (root, accept, onChange) => {
  const watcher = chokidar.watch(root, {
    ignoreInitial: true,
    depth: 0,
    ignored: (path: string) => path !== root && !accept(path),
    awaitWriteFinish: false,
  });
  const report = (path: string) => {
    if (accept(path)) onChange(path);
  };
  watcher.on("add", report).on("change", report).on("unlink", report);
  // A watch error (e.g. the inotify limit) must not crash the host: the poll still works.
  watcher.on("error", () => {});
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return { ready, close: () => watcher.close() };
};

/**
 * File-change notification as a replaceable dependency. The default uses chokidar (native events,
 * no polling); callers always add a cheap size/mtime check of their own as a safety net, because
 * native events are missed on some platforms (WSL2, network drives, some macOS setups).
 */
import chokidar from "chokidar";

export interface FileWatch {
  close(): Promise<void>;
}

/** Calls `onChange(path)` when a watched path (or, for a folder, an entry in it) is added or changed. */
export type WatchFactory = (paths: string[], onChange: (path: string) => void) => FileWatch;

export const chokidarWatch: WatchFactory = (paths, onChange) => {
  const watcher = chokidar.watch(paths, {
    ignoreInitial: true,
    depth: 0,
    persistent: false,
    // Never wait for writes to settle: a transcript is appended to all the time and latency matters.
    awaitWriteFinish: false,
  });
  watcher.on("add", onChange).on("change", onChange);
  // A watch error (e.g. inotify limit reached) must not crash anyone; the poll still works.
  watcher.on("error", () => {});
  return { close: () => watcher.close() };
};

export const noWatch: WatchFactory = () => ({ close: async () => {} });

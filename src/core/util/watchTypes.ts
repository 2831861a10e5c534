/** What a folder watch is (util/fileWatch.ts makes them, util/watchedFolder.ts owns them), apart so that its makers can share it. */
/**
 * A watch's throttle of a file's `change` events when it does not say (chokidar's, which Arcadia
 * used before util/nativeFolderWatch.ts): a watch of a test, or none, gets the trailing looks.
 */
export const CHOKIDAR_CHANGE_THROTTLE_MS = 50;

export interface FileWatch {
  /** Resolves once the watch is in place: changes before that may not be reported. */
  ready: Promise<void>;
  close(): Promise<void>;
  /**
   * How long after reporting a path the watch may drop that path's next changes (chokidar: 50 ms);
   * trailing looks cover that span (util/watchedFolder.ts). Omitted: chokidar's, to be safe.
   */
  throttleMs?: number;
  /** Watches the folders `accept` admits now that it did not before (a subscriber joined a shared watch). */
  rescan?: () => Promise<void>;
}

/**
 * Watches `root` (an existing folder) and calls `onChange` for added or changed entries below it
 * that `accept` admits; folders that `accept` rejects are not descended into.
 */
export type WatchFactory = (root: string, accept: (path: string) => boolean, onChange: (path: string) => void) => FileWatch;

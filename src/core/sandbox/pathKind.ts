/**
 * What is at a path, looked at synchronously: the sandbox's launch looks at a few dozen known
 * places before every command, and a round trip through libuv's threads for each cost more than
 * the looking (on a loaded machine each waited milliseconds to be scheduled). Never throws: a
 * path that cannot be looked at (missing, under a file, no permission) is `undefined`.
 */
import { lstatSync, type Stats, statSync } from "node:fs";

export type PathKind = "file" | "directory" | "symlink" | "other" | undefined;

/** Links not followed. */
export function kindNow(path: string): PathKind {
  const s = lstatNow(path);
  if (!s) return undefined;
  return s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
}

export function lstatNow(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Whether `path` is a folder, links followed. */
export function isFolderNow(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

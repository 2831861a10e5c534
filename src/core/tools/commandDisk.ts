/**
 * What the command approval policy looks at on disk, at decision time: where paths really lead
 * (symlinks followed, a dangling link to its target), what sits at a path without following a
 * final link, and what an unquoted glob would expand to. A port so the policy stays a function of
 * its inputs; `nodeCommandDisk` is the one implementation (both hosts run where the files are),
 * and unit tests use it on real temp folders.
 */
import { lstat } from "node:fs/promises";
import { glob } from "tinyglobby";
import { realpathAllowingMissing } from "./paths";
import type { WorkspaceFiles } from "./ports";

export type DiskEntry = "file" | "directory" | "symlink" | "other";

export interface CommandDisk {
  /** Symlinks resolved; a missing tail kept; a dangling link followed to its target (paths.ts). */
  realpath(path: string): Promise<string>;
  /** What is at `path` itself (a final symlink is not followed); undefined when nothing is. */
  entry(path: string): Promise<DiskEntry | undefined>;
  /** Absolute paths an unquoted glob matches from `cwd` (dot files only when the pattern says so, like sh). */
  expandGlob(pattern: string, cwd: string, limit: number): Promise<string[]>;
}

export function nodeCommandDisk(files: Pick<WorkspaceFiles, "realpath">): CommandDisk {
  return {
    realpath: (path) => realpathAllowingMissing(files, path),
    async entry(path) {
      try {
        const s = await lstat(path);
        return s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
      } catch {
        return undefined;
      }
    },
    async expandGlob(pattern, cwd, limit) {
      // Links followed, as the shell does: a link among the matches is what the check is for (no `**` gets here).
      const found = await glob(pattern, { cwd, absolute: true, onlyFiles: false, dot: false, followSymbolicLinks: true, expandDirectories: false });
      return found.slice(0, limit + 1);
    },
  };
}

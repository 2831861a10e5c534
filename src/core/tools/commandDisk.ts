/**
 * What the command approval policy looks at on disk, at decision time: where paths really lead
 * (symlinks followed, a dangling link to its target), what sits at a path without following a
 * final link, and the names a folder holds (for Arcadia's own expansion of `*` and `?`,
 * globExpansion.ts). A port so the policy stays a function of its inputs; `nodeCommandDisk` is
 * the one implementation (both hosts run where the files are), and unit tests use it on real
 * temp folders.
 */
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import type { GlobDisk } from "./globExpansion";
import { realpathAllowingMissing } from "./paths";
import type { WorkspaceFiles } from "./ports";

export type DiskEntry = "file" | "directory" | "symlink" | "other";

export interface CommandDisk extends GlobDisk {
  /** Symlinks resolved; a missing tail kept; a dangling link followed to its target (paths.ts). */
  realpath(path: string): Promise<string>;
  /** What is at `path` itself (a final symlink is not followed); undefined when nothing is. */
  entry(path: string): Promise<DiskEntry | undefined>;
  /** A small file's text (a `.git` file's `gitdir:` line), or undefined. */
  readText(path: string, maxBytes: number): Promise<string | undefined>;
}

export function nodeCommandDisk(files: Pick<WorkspaceFiles, "realpath">): CommandDisk {
  const entry = async (path: string): Promise<DiskEntry | undefined> => {
    try {
      const s = await lstat(path);
      return s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
    } catch {
      return undefined;
    }
  };
  return {
    realpath: (path) => realpathAllowingMissing(files, path),
    entry,
    names: (folder) => readdir(folder).catch(() => undefined),
    exists: async (path) => (await entry(path)) !== undefined,
    isFolder: (path) => stat(path).then((s) => s.isDirectory(), () => false),
    async readText(path, maxBytes) {
      try {
        const s = await stat(path);
        if (!s.isFile() || s.size > maxBytes) return undefined;
        return await readFile(path, "utf8");
      } catch {
        return undefined;
      }
    },
  };
}

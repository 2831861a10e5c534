/**
 * What the command approval policy looks at on disk, at decision time: where paths really lead
 * (symlinks followed, a dangling link to its target), what sits at a path without following a
 * final link, and the names a folder holds (for Arcadia's own expansion of `*` and `?`,
 * globExpansion.ts). A port so the policy stays a function of its inputs; `nodeCommandDisk` is
 * the one implementation (both hosts run where the files are), and unit tests use it on real
 * temp folders.
 */
import { readdir, stat } from "node:fs/promises";
import { nodeRepositoryDisk, type RepositoryDisk } from "../git";
import type { GlobDisk } from "./globExpansion";
import { realpathAllowingMissing } from "./paths";
import type { WorkspaceFiles } from "./ports";

export interface CommandDisk extends GlobDisk, RepositoryDisk {}

export function nodeCommandDisk(files: Pick<WorkspaceFiles, "realpath">): CommandDisk {
  return {
    ...nodeRepositoryDisk,
    realpath: (path) => realpathAllowingMissing(files, path),
    names: (folder) => readdir(folder).catch(() => undefined),
    exists: async (path) => (await nodeRepositoryDisk.entry(path)) !== undefined,
    isFolder: (path) =>
      stat(path).then(
        (s) => s.isDirectory(),
        () => false,
      ),
  };
}

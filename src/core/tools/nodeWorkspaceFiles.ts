/**
 * WorkspaceFiles on plain Node (`fs`): for hosts without VS Code — the rig's MCP sidecar and the
 * tests. VS Code's own adapter is src/vscode/tools/vscodeWorkspaceFiles.ts.
 */
import { mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { glob } from "tinyglobby";
import type { DirEntry, EntryType, FileStat, WorkspaceFiles } from "./ports";

export function nodeWorkspaceFiles(folders: readonly string[]): WorkspaceFiles {
  return {
    folders: () => folders,
    realpath: (path) => realpath(path),
    async stat(path): Promise<FileStat | undefined> {
      try {
        const s = await stat(path);
        return { type: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other", size: s.size };
      } catch {
        return undefined;
      }
    },
    readFile: (path) => readFile(path),
    async writeFile(path, data) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
    async readDirectory(path): Promise<DirEntry[]> {
      const entries = await readdir(path, { withFileTypes: true });
      return Promise.all(
        entries.map(async (e): Promise<DirEntry> => {
          if (!e.isSymbolicLink()) return { name: e.name, type: typeOf(e) };
          const target = await stat(join(path, e.name)).catch(() => undefined);
          return { name: e.name, type: target?.isDirectory() ? "directory" : target?.isFile() ? "file" : "other", symlink: true };
        }),
      );
    },
    async findFiles(root, pattern, limit) {
      const found = await glob(pattern ?? "**/*", { cwd: root, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: false, ignore: ["**/.git/**", "**/node_modules/**"] });
      return found.sort().slice(0, limit);
    },
  };
}

function typeOf(e: { isFile(): boolean; isDirectory(): boolean }): EntryType {
  return e.isFile() ? "file" : e.isDirectory() ? "directory" : "other";
}

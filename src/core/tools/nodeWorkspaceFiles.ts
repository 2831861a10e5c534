/**
 * WorkspaceFiles on plain Node (`fs`): for hosts without VS Code — the rig's MCP sidecar and the
 * tests. VS Code's own adapter is src/vscode/tools/vscodeWorkspaceFiles.ts. Reads and writes go
 * through checkedOpen.ts (no symlink swapped in after the check is followed).
 */
import { realpath, stat } from "node:fs/promises";
import { glob } from "tinyglobby";
import { readDirectoryChecked, readFileChecked, writeFileChecked } from "./checkedOpen";
import type { FileStat, WorkspaceFiles } from "./ports";

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
    readFile: (path) => readFileChecked(path),
    writeFile: (target, data) => writeFileChecked(target, data),
    readDirectory: (path) => readDirectoryChecked(path),
    async findFiles(root, pattern, limit) {
      const found = await glob(pattern ?? "**/*", {
        cwd: root,
        absolute: true,
        onlyFiles: true,
        dot: true,
        followSymbolicLinks: false,
        ignore: ["**/.git/**", "**/node_modules/**"],
      });
      return found.sort().slice(0, limit);
    },
  };
}

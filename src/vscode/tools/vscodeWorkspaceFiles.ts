/**
 * WorkspaceFiles on VS Code: `workspace.fs` for stat, `findFiles` for search; Node's fs for links
 * and for reading, listing and writing (core/tools/checkedOpen.ts). Those need file handles, open
 * flags (O_NOFOLLOW) and /proc/self/fd, which workspace.fs does not have; the extension host runs
 * where the files are (a workspace extension, `file:` folders only), so Node sees the same files.
 * A write through Node is picked up by VS Code's file watcher like any other change on disk.
 */
import { realpath } from "node:fs/promises";
import { vscode } from "../api";
import { readDirectoryChecked, readFileChecked, writeFileChecked } from "../../core/tools";
import type { EntryType, FileStat, WorkspaceFiles } from "../../core/tools";

/** Not searched: huge, and never what an agent looks for (files.exclude covers .git already). */
const SKIP = /[\\/](node_modules|\.git)[\\/]/;

export function vscodeWorkspaceFiles(): WorkspaceFiles {
  return {
    // Local folders only: the tools work on the file system of the extension host.
    folders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
    // workspace.fs has no realpath; the extension host runs where the files are (a workspace extension).
    realpath: (path) => realpath(path),
    async stat(path): Promise<FileStat | undefined> {
      try {
        const s = await vscode.workspace.fs.stat(vscode.Uri.file(path));
        return { type: typeOf(s.type), size: s.size };
      } catch {
        return undefined;
      }
    },
    readFile: (path) => readFileChecked(path),
    writeFile: (target, data) => writeFileChecked(target, data),
    readDirectory: (path) => readDirectoryChecked(path),
    async findFiles(root, glob, limit) {
      // `undefined` exclude = the user's files.exclude; node_modules is dropped here. Symlinked
      // folders are followed (search.followSymlinks): search_files realpaths every file it is
      // given and skips those outside the searched folder and the workspace.
      const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(root), glob ?? "**/*"), undefined, limit * 2);
      return uris
        .map((u) => u.fsPath)
        .filter((p) => !SKIP.test(p.slice(root.length)))
        .sort()
        .slice(0, limit);
    },
  };
}

function typeOf(type: vscode.FileType): EntryType {
  if (type & vscode.FileType.Directory) return "directory";
  if (type & vscode.FileType.File) return "file";
  return "other";
}

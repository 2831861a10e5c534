/** WorkspaceFiles on VS Code: `workspace.fs` for files, `findFiles` for search, Node's realpath for links. */
import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { vscode } from "../api";
import type { DirEntry, EntryType, FileStat, WorkspaceFiles } from "../../core/tools/ports";

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
    readFile: async (path) => vscode.workspace.fs.readFile(vscode.Uri.file(path)),
    async writeFile(path, data) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(dirname(path)));
      await vscode.workspace.fs.writeFile(vscode.Uri.file(path), data);
    },
    async readDirectory(path): Promise<DirEntry[]> {
      const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.file(path));
      return entries.map(([name, type]) => ({ name, type: typeOf(type), ...(type & vscode.FileType.SymbolicLink ? { symlink: true } : {}) }));
    },
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

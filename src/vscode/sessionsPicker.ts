/** "Sessions": the project's transcripts, newest first; the chosen one opens in an editor. */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { vscode } from "./api";
import { projectDirFor } from "../core/transcript/projectDir";
import { chooseLaunchFolder } from "./folderChoice";

/** `arcadia.openSessions`: the sessions of the folder agents start in (asked once in a multi-root workspace). */
export function registerSessionsCommand(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand("arcadia.openSessions", async () => {
    const cwd = await chooseLaunchFolder(context.workspaceState);
    if (cwd) await pickSession(projectDirFor(cwd));
  });
}

export async function pickSession(projectDir: string): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(projectDir)).filter((n) => n.endsWith(".jsonl"));
  } catch {
    void vscode.window.showInformationMessage(`No Claude Code sessions for this workspace yet (${projectDir} does not exist).`);
    return;
  }
  const items = await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(projectDir, name));
      return { label: name, description: info.mtime.toLocaleString(), mtime: info.mtimeMs };
    }),
  );
  items.sort((a, b) => b.mtime - a.mtime);
  const reveal = { label: "$(folder-opened) Reveal the sessions folder", description: projectDir, mtime: 0 };
  const picked = await vscode.window.showQuickPick([reveal, ...items], { placeHolder: `${items.length} sessions in ${projectDir}` });
  if (!picked) return;
  if (picked === reveal) {
    await vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(projectDir));
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(join(projectDir, picked.label)), { preview: true });
}

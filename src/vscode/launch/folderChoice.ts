/**
 * Where a new agent runs: the workspace folder; in a multi-root workspace the one the user picks
 * (asked once, then remembered); with no folder open, the home directory, like the CLI itself.
 */
import { homedir } from "node:os";
import { vscode } from "../api";

const KEY = "arcadia.launchFolder";

export async function chooseLaunchFolder(state: vscode.Memento, askAgain = false): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return homedir();
  if (folders.length === 1) return folders[0]?.uri.fsPath;
  const remembered = state.get<string>(KEY);
  if (!askAgain && remembered && folders.some((f) => f.uri.fsPath === remembered)) return remembered;
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: "Run Claude Code in which folder? (Arcadia remembers your choice)" });
  if (!picked) return undefined;
  await state.update(KEY, picked.uri.fsPath);
  return picked.uri.fsPath;
}

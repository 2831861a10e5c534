/**
 * VS Code entry point. The panel, terminals and agents arrive with the next milestone; for now the
 * extension activates, opens its log channel and says which transcript folder it would follow.
 */
import * as vscode from "vscode";
import { projectDirFor } from "./core/transcript/projectDir";

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel("Arcadia", { log: true });
  context.subscriptions.push(log);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  log.info(`Arcadia activated; transcripts for this workspace live in ${projectDirFor(folder)}`);
  context.subscriptions.push(vscode.commands.registerCommand("arcadia.showLog", () => log.show()));
}

export function deactivate(): void {}

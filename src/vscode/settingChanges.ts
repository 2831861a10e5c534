/**
 * One log line when an Arcadia setting changes ("arcadia.extraArgs is now [\"--model\",\"opus\"]"):
 * when an agent behaves differently than expected, the log says from when which settings held.
 */
import { vscode } from "./api";
import type { Log } from "../agents/ports";

const WATCHED = [
  "claudePath",
  "extraArgs",
  "notify",
  "adoptTerminals",
  "liveToolsFromHooks",
  "mcp.commandApproval",
  "mcp.allowedCommands",
  "budget.perAgent",
  "budget.perDay",
  "budget.perRace",
  "budget.maxSubagents",
];

export function logSettingChanges(log: Log): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration("arcadia")) return;
    const config = vscode.workspace.getConfiguration("arcadia");
    for (const key of WATCHED) if (e.affectsConfiguration(`arcadia.${key}`)) log.info(`setting arcadia.${key} is now ${JSON.stringify(config.get(key))}`);
  });
}

/**
 * The palette's way to force-finish a hung MCP call (`arcadia.cancelToolCall` /
 * `arcadia.completeToolCall`): the given id, or a quick pick of the calls in flight.
 */
import { vscode } from "../api";
import { combinedDisposable } from "../../core/util";
import { type FinishAction, forceFinish } from "../../agents/tools/forceFinish";
import type { Log } from "../../agents/ports";
import type { ToolCallTracker, TrackedCall } from "../../core/mcp";
// The card's own formatter, so a call reads "running 2m 05s" in the picker as on its row. The
// extension may take this pure function from the webview's sources; the reverse is refused (the
// webview imports only types from src/), so it lives there.
import { formatElapsed } from "../../shared/elapsed";

export async function pickCall(calls: readonly TrackedCall[], agentName: (agentId: string | undefined) => string, action: string): Promise<string | undefined> {
  if (calls.length === 0) {
    void vscode.window.showInformationMessage("Arcadia: no MCP tool call is in flight.");
    return undefined;
  }
  const now = Date.now();
  const picked = await vscode.window.showQuickPick(
    calls.map((call) => ({
      label: `${call.toolName}${call.display ? `: ${call.display}` : ""}`,
      description: `${agentName(call.agentId)} · running ${formatElapsed(now - call.startedAt)}`,
      callId: call.id,
    })),
    { title: `Arcadia: ${action} a tool call`, placeHolder: "Which call?" },
  );
  return picked?.callId;
}

/** `arcadia.cancelToolCall` / `arcadia.completeToolCall` [callId]: the panel's buttons call them too. */
export function registerForceFinishCommands(tracker: ToolCallTracker, agentName: (agentId: string | undefined) => string, log: Log): vscode.Disposable {
  const run = (action: FinishAction) => async (callId?: unknown) => {
    const id = typeof callId === "string" ? callId : await pickCall(tracker.calls(), agentName, action === "cancel" ? "Cancel" : "Complete");
    if (id) forceFinish(tracker, log, action, id);
  };
  return combinedDisposable(
    vscode.commands.registerCommand("arcadia.cancelToolCall", run("cancel")),
    vscode.commands.registerCommand("arcadia.completeToolCall", run("complete")),
  );
}

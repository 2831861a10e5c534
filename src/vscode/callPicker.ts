/**
 * The palette's way to force-finish a hung MCP call (`arcadia.cancelToolCall` /
 * `arcadia.completeToolCall`): the given id, or a quick pick of the calls in flight.
 */
import { vscode } from "./api";
import type { TrackedCall } from "../core/mcp/toolCallTracker";
import { formatDuration } from "./formatDuration";

export async function pickCall(calls: readonly TrackedCall[], agentName: (agentId: string | undefined) => string, action: string): Promise<string | undefined> {
  if (calls.length === 0) {
    void vscode.window.showInformationMessage("Arcadia: no MCP tool call is in flight.");
    return undefined;
  }
  const now = Date.now();
  const picked = await vscode.window.showQuickPick(
    calls.map((call) => ({
      label: `${call.toolName}${call.display ? `: ${call.display}` : ""}`,
      description: `${agentName(call.agentId)} · running ${formatDuration(now - call.startedAt)}`,
      callId: call.id,
    })),
    { title: `Arcadia: ${action} a tool call`, placeHolder: "Which call?" },
  );
  return picked?.callId;
}

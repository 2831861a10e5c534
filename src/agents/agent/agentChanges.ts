/**
 * What follows from an agent's change: nothing the agent left behind stays live. An exited or closed agent's MCP calls are ended
 * (which withdraws their approvals and diffs and stops their commands), so no late Allow runs
 * anything for nobody; a closed agent's permission prompts, live rows and commands terminal go.
 */
import type { PermissionBroker } from "../../core/hooks";
import type { ToolCallTracker } from "../../core/mcp";
import { combinedDisposable, type Disposable, type Event } from "../../core/util";
import type { CardView } from "../../shared/protocol";
import type { AgentChange } from "./agentRegistry";

export interface AgentChangeDeps {
  /** Lifecycle (removed, permission prompt left). */
  onDidChange: Event<AgentChange>;
  /** Cards (an exited claude). */
  onDidChangeCard: Event<Pick<CardView, "id" | "status">>;
  tracker: Pick<ToolCallTracker, "calls" | "cancelCall">;
  permissions: Pick<PermissionBroker, "answeredElsewhere" | "forgetAgent">;
  closeCommandsTerminal(agentId: string): void;
}

export function followAgentChanges(deps: AgentChangeDeps): Disposable {
  const endCallsOf = (agentId: string, reason: string) => {
    for (const call of deps.tracker.calls()) if (call.agentId === agentId) deps.tracker.cancelCall(call.id, reason);
  };
  const exited = deps.onDidChangeCard((card) => {
    if (card.status === "exited") endCallsOf(card.id, "ended because its claude process exited");
  });
  const lifecycle = deps.onDidChange((change) => {
    if (change.type === "permissionPromptLeft") {
      // Answered in the terminal ("Yes" does not end our hook request): the panel's buttons go.
      deps.permissions.answeredElsewhere(change.agentId, { before: change.at });
    } else if (change.type === "removed") {
      endCallsOf(change.id, "ended because its agent was closed");
      deps.closeCommandsTerminal(change.id);
      deps.permissions.forgetAgent(change.id);
    }
  });
  return combinedDisposable(exited, lifecycle);
}

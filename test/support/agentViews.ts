/**
 * Every agent's part as the manager composes it now, in launch order, with nothing live on it (no
 * board): what the agent-level tests assert on. The extension itself reads cards, never this.
 */
import type { AgentManager } from "../../src/agents/agent/agentManager";
import type { AgentFacts } from "../../src/shared/protocol";

export function agentViews(manager: Pick<AgentManager, "agentIds" | "view">): AgentFacts[] {
  return manager.agentIds().flatMap((id) => manager.view(id) ?? []);
}

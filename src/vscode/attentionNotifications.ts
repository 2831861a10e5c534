/**
 * Notifications follow the cards (src/agents/attention.ts decides): an agent that starts needing
 * you, or finishes its turn, while its card is out of the user's sight. A permission prompt has
 * its own notification with Allow / Deny (permissionNotifications.ts), so it is not told twice.
 */
import { Attention } from "../agents/attention";
import type { AgentView } from "../shared/protocol";
import { notifyNeedsYou, notifyTurnFinished } from "./turnNotifications";

export interface AttentionDeps {
  seen(agentId: string): boolean;
  /** Permission prompts relayed to the panel for this agent now (they bring their own notification). */
  pendingPermissions(agentId: string): number;
  focusAgent(agentId: string): void;
}

export function attentionNotifications(deps: AttentionDeps) {
  const attention = new Attention((id) => deps.seen(id));
  return {
    updated(agent: AgentView): void {
      const kind = attention.needsYou(agent);
      if (kind && !(kind === "permission" && deps.pendingPermissions(agent.id) > 0))
        void notifyNeedsYou(agent, kind, deps.focusAgent, () => attention.stillNeeds(agent.id, kind));
    },
    removed(agentId: string): void {
      attention.forget(agentId);
    },
    turnFinished(agent: AgentView): void {
      if (attention.turnFinished(agent)) void notifyTurnFinished(agent, deps.focusAgent);
    },
  };
}

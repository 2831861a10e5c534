/**
 * Notifications follow the cards (src/agents/cards/attention.ts decides): an agent that starts needing
 * you, or finishes its turn, while its card is out of the user's sight. A permission prompt has
 * its own notification with Allow / Deny (permissionNotifications.ts), so it is not told twice.
 */
import { Attention } from "../../agents/cards/attention";
import type { CardStore } from "../../agents/cards/cardStore";
import { combinedDisposable, type Disposable } from "../../core/util";
import { notifyNeedsYou, notifyTurnFinished } from "./turnNotifications";

export interface AttentionDeps {
  cards: Pick<CardStore, "onDidChangeCard" | "onDidRemoveCard" | "onDidFinishTurn">;
  seen(agentId: string): boolean;
  /** Permission prompts relayed to the panel for this agent now (they bring their own notification). */
  pendingPermissions(agentId: string): number;
  focusAgent(agentId: string): void;
}

export function followAttention(deps: AttentionDeps): Disposable {
  const attention = new Attention((id) => deps.seen(id));
  return combinedDisposable(
    deps.cards.onDidChangeCard((card) => {
      const kind = attention.needsYou(card);
      if (kind && !(kind === "permission" && deps.pendingPermissions(card.id) > 0))
        void notifyNeedsYou(card, kind, deps.focusAgent, () => attention.stillNeeds(card.id, kind));
    }),
    deps.cards.onDidRemoveCard((agentId) => attention.forget(agentId)),
    deps.cards.onDidFinishTurn((card) => {
      if (attention.turnFinished(card)) void notifyTurnFinished(card, deps.focusAgent);
    }),
  );
}

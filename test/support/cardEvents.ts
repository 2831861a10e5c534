/**
 * A card store's events played by hand, for the tests of what follows the cards (the collision
 * guard, the session and worktree figures, the review desk): a card's change, a turn's end, a removal.
 */
import type { CardEvents } from "../../src/agents/cards/cardStore";
import { Emitter } from "../../src/core/util/emitter";
import type { AgentFacts, CardView } from "../../src/shared/protocol";

/** An agent's part as a card with nothing live on it. */
export function asCard(facts: AgentFacts): CardView {
  return { ...facts, calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null };
}

/** `lookup`: where the cards are read from, when the test keeps its agents itself (else: as told). */
export function handCards(lookup?: (agentId: string) => AgentFacts | undefined): CardEvents & {
  cards(): CardView[];
  card(agentId: string): CardView | undefined;
  /** Known from now on, with no event (an agent that was there before anyone listened). */
  put(facts: AgentFacts): void;
  change(facts: AgentFacts): void;
  finish(facts: AgentFacts): void;
  remove(agentId: string): void;
} {
  const changed = new Emitter<CardView>();
  const finished = new Emitter<CardView>();
  const removed = new Emitter<string>();
  const known = new Map<string, CardView>();
  return {
    onDidChangeCard: changed.event,
    onDidFinishTurn: finished.event,
    onDidRemoveCard: removed.event,
    cards: () => [...known.values()],
    card: (id) => {
      const facts = lookup?.(id);
      return lookup ? (facts ? asCard(facts) : undefined) : known.get(id);
    },
    put: (facts) => void known.set(facts.id, asCard(facts)),
    change: (facts) => {
      const card = asCard(facts);
      known.set(card.id, card);
      changed.fire(card);
    },
    finish: (facts) => {
      const card = asCard(facts);
      known.set(card.id, card);
      changed.fire(card);
      finished.fire(card);
    },
    remove: (id) => {
      known.delete(id);
      removed.fire(id);
    },
  };
}

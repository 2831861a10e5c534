/**
 * What the agents closed today had spent, kept by the extension (issue 33: the header's total must
 * not drop when an agent is closed, nor after a window reload). Each card's last usage is kept while
 * it lives; when the card goes, its spend is added to the day's sum, which is saved at once (workspace
 * state) and sent with the panel's cards. The panel's saved state did not survive a reload; this does.
 */
import { localDay, tokenCount } from "../../core/usage";
import { combinedDisposable, type Disposable, DisposableObject } from "../../core/util";
import type { ClosedSpend } from "../../shared/protocol";
import type { CardEvents } from "./cardStore";

/** Where the day's sum is saved (the window's workspace state), read once. */
export interface ClosedSpendStore {
  load(): unknown;
  save(value: ClosedSpend): void;
}

/** A saved sum worth trusting: anything else (another version, a hand edit) starts the day at nothing. */
function isClosedSpend(value: unknown): value is ClosedSpend {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.day === "string" && [v.agents, v.tokens, v.costUsd].every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);
}

export class ClosedSpendTally extends DisposableObject {
  /** Each living card's last known spend (a card without usage spent nothing known). */
  private readonly spent = new Map<string, { tokens: number; costUsd: number }>();
  private sum: ClosedSpend | null;

  constructor(
    cards: Pick<CardEvents, "onDidChangeCard" | "onDidRemoveCard">,
    private readonly store: ClosedSpendStore,
    private readonly now: () => number = Date.now,
  ) {
    super();
    const saved = store.load();
    this.sum = isClosedSpend(saved) ? saved : null;
    this._register(this.follow(cards));
  }

  /** Today's sum, or null when no agent with known spend was closed today. */
  today(): ClosedSpend | null {
    return this.sum?.day === localDay(this.now()) && this.sum.agents > 0 ? this.sum : null;
  }

  private follow(cards: Pick<CardEvents, "onDidChangeCard" | "onDidRemoveCard">): Disposable {
    return combinedDisposable(
      cards.onDidChangeCard((card) => {
        if (card.usage) this.spent.set(card.id, { tokens: tokenCount(card.usage.tokens), costUsd: card.usage.costUsd });
      }),
      cards.onDidRemoveCard((id) => this.closed(id)),
    );
  }

  private closed(agentId: string): void {
    const spend = this.spent.get(agentId);
    this.spent.delete(agentId);
    if (!spend) return;
    const day = localDay(this.now());
    const kept = this.sum?.day === day ? this.sum : null;
    this.sum = {
      day,
      agents: (kept?.agents ?? 0) + 1,
      tokens: (kept?.tokens ?? 0) + spend.tokens,
      costUsd: (kept?.costUsd ?? 0) + spend.costUsd,
    };
    this.store.save(this.sum);
  }
}

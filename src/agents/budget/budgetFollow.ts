/**
 * What the budget follows of the cards: an agent whose turn is over (waiting for its next prompt,
 * or exited) runs no sub-agent any more (the status file stays busy while a background one runs),
 * so its count and its brake's note end; a card removed is forgotten; and every half-minute the
 * burn rates are told again, since a rate falls as an agent stops spending.
 */
import { combinedDisposable, type Disposable } from "../../core/util";
import type { CardEvents } from "../cards/cardStore";
import type { BudgetBook } from "./budgetBook";

const RATE_REFRESH_MS = 30_000;

export function followBudget(book: BudgetBook, cards: Pick<CardEvents, "onDidChangeCard" | "onDidRemoveCard">): Disposable {
  const timer = setInterval(() => book.refreshRates(), RATE_REFRESH_MS);
  timer.unref?.();
  return combinedDisposable(
    cards.onDidChangeCard((card) => {
      if (card.status === "waiting" || card.status === "exited") book.settled(card.id);
    }),
    cards.onDidRemoveCard((id) => book.forget(id)),
    { dispose: () => clearInterval(timer) },
  );
}

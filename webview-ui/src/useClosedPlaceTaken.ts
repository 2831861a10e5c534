/** Until when the details' ✕ ignores clicks: the shown agent was closed, and another's details took its place under the pointer. */
import { useRef } from "react";
import type { CardView } from "../../src/shared/protocol";

/** Longer than a double click, shorter than a deliberate move to the ✕ again. */
export const CLOSE_SETTLE_MS = 800;

/**
 * ms since the epoch until which the ✕ of the agent now in the details should do nothing: set when
 * the agent shown before is no longer among the cards (it was closed) and another came in its
 * place. Choosing another agent's details (a chevron, a terminal in front) sets nothing.
 */
export function useClosedPlaceTaken(shown: string | undefined, cards: readonly CardView[]): number {
  const before = useRef(shown);
  const until = useRef(0);
  if (before.current !== shown) {
    const closed = before.current !== undefined && !cards.some((card) => card.id === before.current);
    if (closed) until.current = Date.now() + CLOSE_SETTLE_MS;
    before.current = shown;
  }
  return until.current;
}

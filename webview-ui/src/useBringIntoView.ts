/** Scrolls an agent's line into view when it starts to need the user or is asked for, never moving focus. */
import { type RefObject, useEffect, useRef, useState } from "react";
import type { CardView } from "../../src/shared/protocol";

/** How long a card asked for (Go to Next Agent That Needs You) stays marked. */
export const REVEAL_MARK_MS = 1500;

function reducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function bringIntoView(element: HTMLElement | null): void {
  // scrollIntoView never moves keyboard focus: the user keeps typing where they were.
  element?.scrollIntoView?.({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
}

/**
 * What needs the user comes into view: a new prompt on the card, or the card starting to need
 * them, scrolls it into view; so does a reveal asked by the extension (`revealSeq` changes), which
 * also marks the card for a moment. Returns whether the card is marked now.
 */
export function useBringIntoView(
  card: RefObject<HTMLElement | null>,
  needsYou: boolean,
  live: Pick<CardView, "prompts"> | undefined,
  revealSeq: number,
): boolean {
  const seenPrompts = useRef<ReadonlySet<string>>(new Set());
  const wasNeeding = useRef(needsYou);
  const [marked, setMarked] = useState(false);

  useEffect(() => {
    const ids = new Set((live?.prompts ?? []).map((p) => p.id));
    const fresh = [...ids].some((id) => !seenPrompts.current.has(id));
    const started = needsYou && !wasNeeding.current;
    seenPrompts.current = ids;
    wasNeeding.current = needsYou;
    if (fresh || started) bringIntoView(card.current);
  }, [card, live, needsYou]);

  useEffect(() => {
    if (revealSeq === 0) return;
    bringIntoView(card.current);
    setMarked(true);
    const timer = setTimeout(() => setMarked(false), REVEAL_MARK_MS);
    return () => clearTimeout(timer);
  }, [card, revealSeq]);

  return marked;
}

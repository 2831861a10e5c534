/** Keeps a finished tool on screen long enough to be seen, even one that started and ended between two updates. */
import { useEffect, useReducer, useRef } from "react";

/** A tool shows for at least this long, even one that started and ended between two updates. */
export const MIN_VISIBLE_MS = 300;

interface Seen<T> {
  firstShown: number;
  item: T;
}

/**
 * `items` plus those recently dropped from it that have been on screen for less than `minMs`.
 * The memory holds only what is displayed: an entry goes once its item is gone and its time is up.
 * Lingering items come first: they are older than anything still in `items`.
 */
export function useMinimumVisibility<T extends { id: string }>(items: readonly T[], minMs = MIN_VISIBLE_MS): T[] {
  const memory = useRef(new Map<string, Seen<T>>());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const now = Date.now();
  const seen = memory.current;

  // Updating the memory during render is safe here: it is idempotent (StrictMode renders twice),
  // and doing it in an effect would let a short-lived tool miss its first paint.
  const present = new Set<string>();
  for (const item of items) {
    present.add(item.id);
    const entry = seen.get(item.id);
    if (entry) entry.item = item;
    else seen.set(item.id, { firstShown: now, item });
  }
  const lingering: T[] = [];
  let nextExpiry = Infinity;
  for (const [id, entry] of seen) {
    if (present.has(id)) continue;
    const expiry = entry.firstShown + minMs;
    if (expiry > now) {
      lingering.push(entry.item);
      nextExpiry = Math.min(nextExpiry, expiry);
    } else {
      seen.delete(id);
    }
  }

  const wait = nextExpiry === Infinity ? undefined : nextExpiry - now;
  useEffect(() => {
    if (wait === undefined) return;
    // Re-render when the first lingering item is due, so it goes without waiting for a message.
    const t = setTimeout(rerender, wait);
    return () => clearTimeout(t);
  }, [wait]);

  return lingering.length === 0 ? (items as T[]) : [...lingering, ...items];
}

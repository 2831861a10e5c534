/**
 * The panel's view of the cards: everything at once (the page's first paint and every `webviewReady`,
 * one function for both) and then the cards as they change, coalesced to at most one message a frame.
 * The card store is the only source.
 */
import type { CardStore } from "../../agents/cards/cardStore";
import { type Clock, combinedDisposable, type Disposable, monotonicClock, type TimerHandle } from "../../core/util";
import type { CardView, ClosedSpend, ExtensionMessage, NoticeView } from "../../shared/protocol";
import type { PanelSnapshot } from "../../shared/protocols/panel";

/** The cards, and what the agents closed today had spent (agents/cards/closedSpend.ts): the header's total keeps it. */
export type CardSource = Pick<CardStore, "cards" | "onDidChangeCard" | "onDidRemoveCard"> & { closedToday?(): ClosedSpend | null };

/**
 * A frame's worth of time. Fifty busy agents change cards hundreds of times a second; a message
 * each cost the page a render each (p99 278 ms from message to frame at ten agents). One message a
 * frame, holding the last of each card, is all a page that paints at 60 Hz can show.
 */
export const CARD_FRAME_MS = 16;

export function panelSnapshot(cards: Pick<CardSource, "cards" | "closedToday">, notice: NoticeView | null, queue: string | null = null): PanelSnapshot {
  return { type: "snapshot", cards: cards.cards(), notice, queue, closed: cards.closedToday?.() ?? null };
}

/**
 * Follows the store and posts `cardsChanged`: the first change after a quiet frame goes out on the
 * next turn of the event loop (a burst of one tick is one message), later ones wait for the frame
 * to end. Each card goes whole, its last version only; a card removed after it changed goes as removed.
 * A message with removals carries today's closed spend, read when it is sent (the card's spend is in it by then).
 */
export function followCards(cards: CardSource, post: (message: ExtensionMessage) => void, clock: Clock = monotonicClock): Disposable {
  const changed = new Map<string, CardView>();
  const removed = new Set<string>();
  let timer: TimerHandle | undefined;
  let lastSent = -Infinity;

  const flush = () => {
    timer = undefined;
    if (changed.size === 0 && removed.size === 0) return;
    const message: Extract<ExtensionMessage, { type: "cardsChanged" }> = { type: "cardsChanged", changed: [...changed.values()], removed: [...removed] };
    if (removed.size > 0 && cards.closedToday) message.closed = cards.closedToday();
    changed.clear();
    removed.clear();
    lastSent = clock.now();
    post(message);
  };
  const schedule = () => {
    if (timer) return;
    timer = clock.setTimeout(flush, Math.max(0, lastSent + CARD_FRAME_MS - clock.now()));
  };

  return combinedDisposable(
    cards.onDidChangeCard((card) => {
      removed.delete(card.id);
      changed.set(card.id, card);
      schedule();
    }),
    cards.onDidRemoveCard((id) => {
      changed.delete(id);
      removed.add(id);
      schedule();
    }),
    { dispose: () => timer?.cancel() },
  );
}

/** The panel's pure reducer over the extension's messages: one whole card per agent, the notice, the reveal. */
import { dequal } from "dequal";
import type { CardView, ClosedSpend, ExtensionMessage, NoticeView } from "../../src/shared/protocol";

export type { ClosedSpend };

/** Everything the panel shows; derived only from the extension's messages. */
export interface PanelState {
  /** One card per agent, sorted by `index`: each the whole card as the extension's card store sent it last. */
  cards: CardView[];
  notice: NoticeView | null;
  /** The task queue on one line; null: no queue to show. */
  queue: string | null;
  /** The card the extension asked to bring into view last, and a count that changes each time. */
  reveal: { id: string; seq: number } | null;
  /**
   * What the agents closed today had spent, as the extension keeps it (agents/cards/closedSpend.ts,
   * saved in its workspace state): the header's total keeps it (spend does not vanish with a card).
   */
  closed: ClosedSpend | null;
}

export const initialState: PanelState = { cards: [], notice: null, queue: null, reveal: null, closed: null };

/**
 * The closed spend a message carries, when it carries one (a snapshot, a frame with removals); else
 * what the panel had. A malformed one is dropped, not shown.
 */
function closedFrom(message: { closed?: unknown }, had: ClosedSpend | null): ClosedSpend | null {
  if (!("closed" in message)) return had;
  return isClosedSpend(message.closed) ? message.closed : null;
}

const byIndex = (a: CardView, b: CardView) => a.index - b.index || a.id.localeCompare(b.id);

// Cards are memoized on the card object. Keeping the old object when nothing in it changed means a
// snapshot (sent on every show) re-renders only the cards that really differ.
function same<T>(a: T, b: T): boolean {
  return a === b || dequal(a, b);
}

/** A card worth showing: well formed where the panel iterates over it. */
function isCardView(value: unknown): value is CardView {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === "string" &&
    typeof v.index === "number" &&
    Array.isArray(v.tools) &&
    Array.isArray(v.calls) &&
    Array.isArray(v.prompts) &&
    Array.isArray(v.sharedFiles) &&
    (v.stillRunning === undefined || Array.isArray(v.stillRunning)) &&
    (v.history === undefined || Array.isArray(v.history))
  );
}

function fromSnapshot(previous: readonly CardView[], cards: readonly unknown[]): CardView[] {
  const before = new Map(previous.map((c) => [c.id, c]));
  // The last entry for an id wins: the protocol promises unique ids, the panel does not rely on it.
  const byId = new Map<string, CardView>();
  for (const card of cards) {
    if (!isCardView(card)) continue;
    const old = before.get(card.id);
    byId.set(card.id, old && same(old, card) ? old : card);
  }
  return [...byId.values()].sort(byIndex);
}

/**
 * The cards with some replaced or added (each whole) and some removed: one pass over the cards, however
 * many changed (fifty agents' frame of changes is one message). A card not well formed is left out.
 */
function withChanges(state: PanelState, changed: readonly unknown[], removed: readonly unknown[]): PanelState {
  const gone = new Set(removed.filter((id) => typeof id === "string"));
  const next = new Map<string, CardView>();
  for (const card of changed) if (isCardView(card)) next.set(card.id, card);
  let touched = false;
  let reorder = false;
  const cards: CardView[] = [];
  for (const old of state.cards) {
    if (gone.has(old.id)) {
      touched = true;
      continue;
    }
    const card = next.get(old.id);
    next.delete(old.id);
    if (!card || same(old, card)) cards.push(old);
    else {
      touched = true;
      reorder ||= card.index !== old.index;
      cards.push(card);
    }
  }
  // What is left is new: the protocol never removes and adds one id in one message.
  for (const card of next.values()) {
    if (gone.has(card.id)) continue;
    cards.push(card);
    touched = reorder = true;
  }
  if (!touched) return state;
  if (reorder) cards.sort(byIndex);
  return { ...state, cards };
}

/** The pure reducer over extension messages. Unknown messages leave the state as it is. */
export function reduce(state: PanelState, message: ExtensionMessage): PanelState {
  switch (message.type) {
    case "snapshot":
      return {
        ...state,
        cards: fromSnapshot(state.cards, message.cards ?? []),
        notice: message.notice ?? null,
        queue: typeof message.queue === "string" ? message.queue : null,
        closed: closedFrom(message, state.closed),
      };
    case "cardsChanged": {
      // The closed spend rides in the frame that removes the card: the total never dips between the two.
      const next = withChanges(state, message.changed, message.removed);
      const closed = closedFrom(message, state.closed);
      return closed === state.closed || dequal(closed, state.closed) ? next : { ...next, closed };
    }
    case "cardChanged":
      return withChanges(state, [message.card], []);
    case "cardRemoved":
      return withChanges(state, [], [message.id]);
    case "notice":
      return { ...state, notice: message.notice ?? null };
    case "queueLine":
      return { ...state, queue: typeof message.line === "string" ? message.line : null };
    case "revealAgent":
      return { ...state, reveal: { id: message.id, seq: (state.reveal?.seq ?? 0) + 1 } };
    default:
      return state;
  }
}

type Shape = Record<string, unknown>;

/**
 * One shape check per message type. Typed as a record over the protocol's message types, so a
 * type added to ExtensionMessage and forgotten here fails to compile instead of being dropped.
 */
const SHAPE_CHECKS: { [T in ExtensionMessage["type"]]: (m: Shape) => boolean } = {
  snapshot: (m) => Array.isArray(m.cards),
  cardsChanged: (m) => Array.isArray(m.changed) && Array.isArray(m.removed),
  cardChanged: (m) => isCardView(m.card),
  cardRemoved: (m) => typeof m.id === "string",
  notice: (m) => "notice" in m,
  revealAgent: (m) => typeof m.id === "string",
  queueLine: (m) => m.line === null || typeof m.line === "string",
};

/** A cheap shape check on `window` messages: anything else posted to the page is ignored. */
export function isExtensionMessage(data: unknown): data is ExtensionMessage {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Shape;
  // Own keys only: a message typed "constructor" or "toString" is not a message.
  if (typeof m.type !== "string" || !Object.prototype.hasOwnProperty.call(SHAPE_CHECKS, m.type)) return false;
  return SHAPE_CHECKS[m.type as ExtensionMessage["type"]](m);
}

// 4: one card per agent (was: agents and their live views apart).
const STATE_VERSION = 4;

/** What `vscode.setState` keeps, so a re-shown view paints at once, before its snapshot arrives. */
export function toSaved(state: PanelState): unknown {
  return { version: STATE_VERSION, cards: state.cards, notice: state.notice, closed: state.closed };
}

function isClosedSpend(value: unknown): value is ClosedSpend {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.day === "string" && [v.agents, v.tokens, v.costUsd].every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);
}

export function fromSaved(saved: unknown): PanelState {
  if (typeof saved !== "object" || saved === null) return initialState;
  const s = saved as { version?: unknown; cards?: unknown; notice?: unknown; closed?: unknown };
  if (s.version !== STATE_VERSION || !Array.isArray(s.cards)) return initialState;
  const restored = reduce(initialState, { type: "snapshot", cards: s.cards as CardView[], notice: (s.notice as NoticeView | null) ?? null });
  return isClosedSpend(s.closed) ? { ...restored, closed: s.closed } : restored;
}

/** A frame's messages in the order they came (frameBatch.ts): one state, one render. */
export function reduceAll(state: PanelState, messages: readonly ExtensionMessage[]): PanelState {
  return messages.reduce((s, m) => reduce(s, m), state);
}

/**
 * The panel's card feed at fifty agents: however many cards a burst changes, the page gets one
 * message a frame, holding the last of each card, and a removed card goes as removed.
 */
import { describe, expect, it } from "vitest";
import { Emitter, ManualClock } from "../../../src/core/util";
import type { CardView, ExtensionMessage } from "../../../src/shared/protocol";
import { CARD_FRAME_MS, type CardSource, followCards } from "../../../src/vscode/panel/cardFeed";

const card = (index: number, status: CardView["status"] = "active") =>
  ({ id: `agent-${index}`, name: `Agent #${index}`, index, status, prompts: [], calls: [], tools: [], sharedFiles: [] }) as unknown as CardView;

function feed() {
  const changed = new Emitter<CardView>();
  const removed = new Emitter<string>();
  const source: CardSource = { cards: () => [], onDidChangeCard: changed.event, onDidRemoveCard: removed.event };
  const clock = new ManualClock(1000);
  const posted: ExtensionMessage[] = [];
  const following = followCards(source, (m) => posted.push(m), clock);
  return { change: (c: CardView) => changed.fire(c), remove: (id: string) => removed.fire(id), clock, posted, following };
}

describe("the panel's card feed", () => {
  it("a burst of fifty card changes (three each) goes to the page as one message with each card's last version", () => {
    const { change, clock, posted } = feed();
    for (const status of ["starting", "waiting", "active"] as const) for (let n = 1; n <= 50; n++) change(card(n, status));
    expect(posted).toHaveLength(0);
    clock.advance(0);
    expect(posted).toHaveLength(1);
    const [message] = posted;
    expect(message?.type).toBe("cardsChanged");
    if (message?.type !== "cardsChanged") return;
    expect(message.changed).toHaveLength(50);
    expect(message.changed.every((c) => c.status === "active")).toBe(true);
    expect(message.removed).toEqual([]);
  });

  it("changes during a frame wait for its end, then go as one message; a quiet feed sends nothing", () => {
    const { change, clock, posted } = feed();
    change(card(1));
    clock.advance(0);
    expect(posted).toHaveLength(1);
    for (let t = 0; t < 10; t++) {
      change(card(2 + t));
      clock.advance(1);
    }
    expect(posted).toHaveLength(1);
    clock.advance(CARD_FRAME_MS);
    expect(posted).toHaveLength(2);
    expect(posted[1]?.type === "cardsChanged" && posted[1].changed.map((c) => c.index)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    clock.advance(10 * CARD_FRAME_MS);
    expect(posted).toHaveLength(2);
  });

  it("a card changed then removed in one frame goes as removed only; removed then back, as changed", () => {
    const { change, remove, clock, posted } = feed();
    change(card(1));
    remove("agent-1");
    remove("agent-2");
    change(card(2, "waiting"));
    clock.advance(0);
    expect(posted).toEqual([{ type: "cardsChanged", changed: [card(2, "waiting")], removed: ["agent-1"] }]);
  });

  it("stops with its subscription: a pending frame is not sent", () => {
    const { change, clock, posted, following } = feed();
    change(card(1));
    following.dispose();
    clock.advance(CARD_FRAME_MS);
    change(card(2));
    clock.advance(CARD_FRAME_MS);
    expect(posted).toHaveLength(0);
  });
});

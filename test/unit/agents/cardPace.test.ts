/**
 * The card store at most once a frame (agents/cards/cardPace.ts): a busy agent's burst of news (a
 * hook, its transcript line, the next hook…) arriving a few ms apart, each on a turn of its own, is
 * one composition and one change told, not one per piece; a lone change still goes at the next turn
 * of the event loop; and a reader asking mid-frame gets the card as its sources say now.
 */
import { describe, expect, it } from "vitest";
import type { AgentChange, AgentTouch, TranscriptEventsRead } from "../../../src/agents/agent/agentRegistry";
import { CARD_STORE_FRAME_MS, oncePerFrame } from "../../../src/agents/cards/cardPace";
import { CardStore } from "../../../src/agents/cards/cardStore";
import { LiveBoard } from "../../../src/agents/cards/liveBoard";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { ManualClock } from "../../../src/core/util/clock";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts, CardView } from "../../../src/shared/protocol";
import { agentFacts } from "../../support/agentFacts";

function setup() {
  const clock = new ManualClock(1_000);
  const touches = new Emitter<AgentTouch>();
  const known = new Map<string, AgentFacts>([
    ["a1", agentFacts("a1")],
    ["a2", agentFacts("a2")],
  ]);
  const agents = {
    onDidChange: new Emitter<AgentChange>().event,
    onDidTouch: touches.event,
    onDidReadTranscript: new Emitter<TranscriptEventsRead>().event,
    agentIds: () => [...known.keys()],
    view: (id: string) => known.get(id),
    agentInfo: (id: string) => (known.has(id) ? { sessionId: "s1" } : undefined),
  };
  const board = new LiveBoard({ calls: new ToolCallTracker(), approvals: new ApprovalQueue() });
  const store = new CardStore({ agents, board, schedule: oncePerFrame(CARD_STORE_FRAME_MS, clock) });
  const changed: CardView[] = [];
  store.onDidChangeCard((card) => changed.push(card));
  const update = (id: string, over: Partial<AgentFacts>) => {
    known.set(id, agentFacts(id, over));
    touches.fire({ agentId: id, news: true });
  };
  return { clock, store, changed, update };
}

describe("the card store's pace", () => {
  it("a lone change is told at the next turn of the event loop", () => {
    const { clock, changed, update } = setup();
    update("a1", { lastTurn: "completed" });
    expect(changed).toEqual([]);
    clock.advance(0);
    expect(changed.map((c) => [c.id, c.lastTurn])).toEqual([["a1", "completed"]]);
  });

  it("a burst of news a few ms apart within a frame is one composition per card, its last state told once", () => {
    const { clock, store, changed, update } = setup();
    update("a1", { lastTurn: "none" });
    clock.advance(0);
    const before = store.compositions;
    changed.length = 0;
    // Five pieces of news for a1 and two for a2, 3 ms apart, each on a turn of its own (as hooks and file events come).
    const steps: [string, Partial<AgentFacts>][] = [
      ["a1", { status: "active", retry: null }],
      ["a2", { status: "waiting" }],
      ["a1", { status: "needsYou", needsYou: { kind: "permission" } }],
      ["a1", { status: "active", needsYou: null }],
      ["a2", { status: "active" }],
      ["a1", { lastTurn: "completed", status: "waiting" }],
    ];
    for (const [id, over] of steps) {
      update(id, over);
      clock.advance(3);
    }
    clock.advance(CARD_STORE_FRAME_MS);
    // Each card composed at most once for the rest of the frame (the burst's first piece may have gone alone).
    expect(store.compositions - before).toBeLessThanOrEqual(3);
    const last = new Map(changed.map((c) => [c.id, c]));
    expect(last.get("a1")).toMatchObject({ status: "waiting", lastTurn: "completed", needsYou: null });
    expect(last.get("a2")).toMatchObject({ status: "active" });
  });

  it("a reader mid-frame gets the card as its sources say now, and the change is still told once", () => {
    const { clock, store, changed, update } = setup();
    update("a1", {});
    clock.advance(0);
    changed.length = 0;
    update("a1", { status: "needsYou", needsYou: { kind: "permission" } });
    expect(store.card("a1")).toMatchObject({ status: "needsYou" });
    expect(store.cards().find((c) => c.id === "a1")).toMatchObject({ status: "needsYou" });
    clock.advance(CARD_STORE_FRAME_MS);
    expect(changed.map((c) => c.status)).toEqual(["needsYou"]);
  });

  it("a store disposed with a flush due tells nothing more", () => {
    const { clock, store, changed, update } = setup();
    update("a1", { lastTurn: "completed" });
    store.dispose();
    clock.advance(CARD_STORE_FRAME_MS);
    expect(changed).toEqual([]);
  });
});

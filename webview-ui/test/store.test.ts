import { describe, expect, it } from "vitest";
import { fromSaved, initialState, isExtensionMessage, reduce, toSaved, type PanelState } from "../src/store";
import type { CardView } from "../../src/shared/protocol";
import { agent, liveCall, prompt } from "./helpers";

const snapshot = (cards: CardView[] = [agent({ index: 2 }), agent({ index: 1 })]) => ({ type: "snapshot" as const, cards, notice: null });
const changed = (card: CardView) => ({ type: "cardChanged" as const, card });

describe("store", () => {
  it("a snapshot replaces everything and orders cards by index", () => {
    let state: PanelState = { ...initialState, cards: [agent({ index: 9 })], notice: { kind: "error", message: "old", actions: [] } };
    state = reduce(state, snapshot());
    expect(state.cards.map((a) => a.name)).toEqual(["Agent #1", "Agent #2"]);
    expect(state.notice).toBeNull();
  });

  it("the same snapshot twice leaves no duplicates and keeps unchanged cards as they were", () => {
    const first = reduce(initialState, snapshot());
    const second = reduce(first, snapshot());
    expect(second.cards).toHaveLength(2);
    expect(second.cards[0]).toBe(first.cards[0]);
    expect(second.cards[1]).toBe(first.cards[1]);
  });

  it("keeps one card per id even if a snapshot repeats an id, and drops malformed cards", () => {
    const state = reduce(initialState, snapshot([agent({ index: 1 }), agent({ index: 1, name: "Later" }), { id: "x" } as never]));
    expect(state.cards.map((a) => a.name)).toEqual(["Later"]);
  });

  it("cardChanged inserts a new card in index order and replaces a known one whole", () => {
    let state = reduce(initialState, snapshot([agent({ index: 1 }), agent({ index: 3 })]));
    state = reduce(state, changed(agent({ index: 2 })));
    expect(state.cards.map((a) => a.index)).toEqual([1, 2, 3]);
    const untouched = state.cards[0];
    const call = liveCall({ callId: "c1", toolUseId: "t1" });
    state = reduce(state, changed(agent({ index: 2, status: "active", calls: [call] })));
    expect(state.cards.map((a) => a.index)).toEqual([1, 2, 3]);
    expect(state.cards[1]).toMatchObject({ status: "active", calls: [call] });
    expect(state.cards[0]).toBe(untouched);
    // The whole card replaces the old one: what it no longer has is gone.
    state = reduce(state, changed(agent({ index: 2, status: "waiting" })));
    expect(state.cards[1]).toMatchObject({ status: "waiting", calls: [] });
  });

  it("a change that changes nothing keeps the state object", () => {
    const state = reduce(initialState, snapshot([agent({ index: 1, prompts: [prompt({ id: "p1" })] })]));
    expect(reduce(state, changed(agent({ index: 1, prompts: [prompt({ id: "p1" })] })))).toBe(state);
  });

  it("cardRemoved drops the card; an unknown id changes nothing", () => {
    const state = reduce(initialState, snapshot());
    expect(reduce(state, { type: "cardRemoved", id: "agent-1" }).cards.map((a) => a.id)).toEqual(["agent-2"]);
    expect(reduce(state, { type: "cardRemoved", id: "nope" })).toBe(state);
  });

  it("notice sets and clears the banner", () => {
    const notice = { kind: "claudeMissing" as const, message: "claude not found", actions: [] };
    let state = reduce(initialState, { type: "notice", notice });
    expect(state.notice).toEqual(notice);
    state = reduce(state, { type: "notice", notice: null });
    expect(state.notice).toBeNull();
  });

  it("ignores messages it does not know, and cards without the parts it iterates over", () => {
    expect(isExtensionMessage({ type: "somethingNew" })).toBe(false);
    expect(isExtensionMessage("snapshot")).toBe(false);
    // Names every object has are not message types.
    expect(isExtensionMessage({ type: "constructor" })).toBe(false);
    expect(isExtensionMessage({ type: "toString" })).toBe(false);
    // The old two-model messages are not this protocol's.
    expect(isExtensionMessage({ type: "agentUpdated", agent: agent() })).toBe(false);
    expect(isExtensionMessage(snapshot())).toBe(true);
    expect(isExtensionMessage(changed(agent()))).toBe(true);
    expect(isExtensionMessage({ type: "cardChanged", card: { ...agent(), calls: "nope" } })).toBe(false);
    expect(isExtensionMessage({ type: "cardChanged", card: { ...agent(), id: 1 } })).toBe(false);
    expect(isExtensionMessage({ type: "snapshot", cards: "nope", notice: null })).toBe(false);
    expect(reduce(initialState, { type: "somethingNew" } as never)).toBe(initialState);
  });

  it("round-trips through VS Code's saved state with what is live on each card; saved state of another version is not trusted", () => {
    const state = reduce(initialState, snapshot([agent({ index: 1, calls: [liveCall({ callId: "c1" })] }), agent({ index: 2 })]));
    const back = fromSaved(JSON.parse(JSON.stringify(toSaved(state))));
    expect(back).toEqual(state);
    expect(back.cards[0]?.calls.map((c) => c.callId)).toEqual(["c1"]);
    expect(fromSaved(undefined)).toBe(initialState);
    expect(fromSaved({ version: 3, agents: [agent()], live: [], notice: null })).toBe(initialState);
  });
});

describe("the first paint", () => {
  it("shows the cards the extension embedded in the page, before any message", async () => {
    const { firstPaintState } = await import("../src/firstPaint");
    const block = document.createElement("script");
    block.type = "application/json";
    block.id = "arcadia-initial-state";
    block.textContent = JSON.stringify({ type: "snapshot", cards: [agent({ id: "a1", status: "starting", reconnecting: true })], notice: null });
    document.body.append(block);
    try {
      expect(firstPaintState(undefined).cards.map((a) => [a.name, a.reconnecting])).toEqual([["Agent #1", true]]);
      block.textContent = "{not json";
      expect(firstPaintState(undefined).cards).toEqual([]);
    } finally {
      block.remove();
    }
  });
});

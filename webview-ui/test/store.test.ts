import { describe, expect, it } from "vitest";
import { fromSaved, initialState, isExtensionMessage, reduce, toSaved, type PanelState } from "../src/store";
import { agent } from "./helpers";

const snapshot = (agents = [agent({ index: 2 }), agent({ index: 1 })]) => ({ type: "snapshot" as const, agents, notice: null });

describe("store", () => {
  it("a snapshot replaces everything and orders agents by index", () => {
    let state: PanelState = { agents: [agent({ index: 9 })], notice: { kind: "error", message: "old", actions: [] } };
    state = reduce(state, snapshot());
    expect(state.agents.map((a) => a.name)).toEqual(["Agent #1", "Agent #2"]);
    expect(state.notice).toBeNull();
  });

  it("the same snapshot twice leaves no duplicates and keeps unchanged agents as they were", () => {
    const first = reduce(initialState, snapshot());
    const second = reduce(first, snapshot());
    expect(second.agents).toHaveLength(2);
    expect(second.agents[0]).toBe(first.agents[0]);
    expect(second.agents[1]).toBe(first.agents[1]);
  });

  it("keeps one card per id even if a snapshot repeats an id", () => {
    const state = reduce(initialState, snapshot([agent({ index: 1 }), agent({ index: 1, name: "Later" })]));
    expect(state.agents.map((a) => a.name)).toEqual(["Later"]);
  });

  it("agentUpdated inserts a new agent in index order and replaces a known one", () => {
    let state = reduce(initialState, snapshot([agent({ index: 1 }), agent({ index: 3 })]));
    state = reduce(state, { type: "agentUpdated", agent: agent({ index: 2 }) });
    expect(state.agents.map((a) => a.index)).toEqual([1, 2, 3]);
    const untouched = state.agents[0];
    state = reduce(state, { type: "agentUpdated", agent: agent({ index: 2, status: "active" }) });
    expect(state.agents.map((a) => a.index)).toEqual([1, 2, 3]);
    expect(state.agents[1]?.status).toBe("active");
    expect(state.agents[0]).toBe(untouched);
  });

  it("an update that changes nothing keeps the state object", () => {
    const state = reduce(initialState, snapshot());
    expect(reduce(state, { type: "agentUpdated", agent: agent({ index: 1 }) })).toBe(state);
  });

  it("agentRemoved drops the agent; an unknown id changes nothing", () => {
    const state = reduce(initialState, snapshot());
    expect(reduce(state, { type: "agentRemoved", id: "agent-1" }).agents.map((a) => a.id)).toEqual(["agent-2"]);
    expect(reduce(state, { type: "agentRemoved", id: "nope" })).toBe(state);
  });

  it("notice sets and clears the banner", () => {
    const notice = { kind: "claudeMissing" as const, message: "claude not found", actions: [] };
    let state = reduce(initialState, { type: "notice", notice });
    expect(state.notice).toEqual(notice);
    state = reduce(state, { type: "notice", notice: null });
    expect(state.notice).toBeNull();
  });

  it("ignores messages it does not know", () => {
    expect(isExtensionMessage({ type: "somethingNew" })).toBe(false);
    expect(isExtensionMessage("snapshot")).toBe(false);
    expect(isExtensionMessage({ type: "agentUpdated" })).toBe(false);
    expect(isExtensionMessage(snapshot())).toBe(true);
    expect(reduce(initialState, { type: "somethingNew" } as never)).toBe(initialState);
  });

  it("round-trips through VS Code's saved state, and ignores saved state it does not recognise", () => {
    const state = reduce(initialState, snapshot());
    expect(fromSaved(JSON.parse(JSON.stringify(toSaved(state))))).toEqual(state);
    expect(fromSaved(undefined)).toBe(initialState);
    expect(fromSaved({ version: 0, agents: [] })).toBe(initialState);
  });
});

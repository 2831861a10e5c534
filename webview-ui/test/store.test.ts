import { describe, expect, it } from "vitest";
import { fromSaved, initialState, isExtensionMessage, reduce, toSaved, type PanelState } from "../src/store";
import type { AgentLiveView } from "../../src/shared/protocol";
import { agent, agentLive, liveCall, prompt } from "./helpers";

const snapshot = (agents = [agent({ index: 2 }), agent({ index: 1 })], live: AgentLiveView[] = []) => ({ type: "snapshot" as const, agents, live, notice: null });

describe("store", () => {
  it("a snapshot replaces everything and orders agents by index", () => {
    let state: PanelState = { ...initialState, agents: [agent({ index: 9 })], notice: { kind: "error", message: "old", actions: [] } };
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
    // Names every object has are not message types.
    expect(isExtensionMessage({ type: "constructor" })).toBe(false);
    expect(isExtensionMessage({ type: "toString" })).toBe(false);
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

describe("store: live calls and prompts", () => {
  const call = liveCall({ callId: "c1", toolUseId: "t1" });

  it("agentLive replaces the agent's live view; an empty one removes it; the same one changes nothing", () => {
    let state = reduce(initialState, snapshot());
    state = reduce(state, agentLive("agent-1", { calls: [call] }));
    expect(state.live.get("agent-1")?.calls).toEqual([call]);
    const p = prompt({ id: "p1" });
    state = reduce(state, agentLive("agent-1", { prompts: [p] }));
    expect(state.live.get("agent-1")).toEqual({ agentId: "agent-1", calls: [], prompts: [p], sharedFiles: [], worktree: null, sessionEdits: null });
    expect(reduce(state, agentLive("agent-1", { prompts: [p] }))).toBe(state);
    state = reduce(state, agentLive("agent-1"));
    expect(state.live.has("agent-1")).toBe(false);
    expect(reduce(state, agentLive("agent-1"))).toBe(state);
  });

  it("keeps a live view that arrives before its agent", () => {
    const state = reduce(initialState, agentLive("agent-7", { calls: [call] }));
    expect(state.live.get("agent-7")?.calls).toEqual([call]);
  });

  it("a snapshot's live views replace all others, reusing unchanged ones", () => {
    let state = reduce(initialState, agentLive("agent-2", { calls: [liveCall({ callId: "old" })] }));
    state = reduce(state, snapshot(undefined, [{ agentId: "agent-1", calls: [call], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null }]));
    expect([...state.live.keys()]).toEqual(["agent-1"]);
    const kept = state.live.get("agent-1");
    state = reduce(state, snapshot(undefined, [{ agentId: "agent-1", calls: [call], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null }]));
    expect(state.live.get("agent-1")).toBe(kept);
    // Empty and malformed entries are not kept.
    state = reduce(state, snapshot(undefined, [{ agentId: "agent-1", calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null }, { agentId: "x" } as never]));
    expect(state.live.size).toBe(0);
  });

  it("agentRemoved drops the agent's live view too", () => {
    let state = reduce(initialState, snapshot(undefined, [{ agentId: "agent-1", calls: [call], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null }]));
    state = reduce(state, { type: "agentRemoved", id: "agent-1" });
    expect(state.live.has("agent-1")).toBe(false);
    expect(state.agents.map((a) => a.id)).toEqual(["agent-2"]);
  });

  it("isExtensionMessage accepts agentLive only with its parts", () => {
    expect(isExtensionMessage(agentLive("agent-1", { calls: [call] }))).toBe(true);
    expect(isExtensionMessage({ type: "agentLive" })).toBe(false);
    expect(isExtensionMessage({ type: "agentLive", live: { agentId: "a", calls: [] } })).toBe(false);
    expect(isExtensionMessage({ type: "agentLive", live: { agentId: 1, calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null } })).toBe(false);
    expect(isExtensionMessage({ type: "snapshot", agents: [], live: "nope", notice: null })).toBe(false);
    // An older extension's snapshot without `live` still shows its agents.
    expect(isExtensionMessage({ type: "snapshot", agents: [], notice: null })).toBe(true);
  });

  it("saved state keeps live views; saved state from the previous version is not trusted", () => {
    const state = reduce(reduce(initialState, snapshot()), agentLive("agent-1", { calls: [call] }));
    const back = fromSaved(JSON.parse(JSON.stringify(toSaved(state))));
    expect(back).toEqual(state);
    expect(back.live.get("agent-1")?.calls).toEqual([call]);
    expect(fromSaved({ version: 1, agents: [agent()], notice: null })).toBe(initialState);
  });
});

describe("the first paint", () => {
  it("shows the cards the extension embedded in the page, before any message", async () => {
    const { firstPaintState } = await import("../src/firstPaint");
    const block = document.createElement("script");
    block.type = "application/json";
    block.id = "arcadia-initial-state";
    block.textContent = JSON.stringify({ type: "snapshot", agents: [{ id: "a1", name: "Agent #1", index: 1, status: "starting", lastTurn: "none", tools: [], focused: false, retry: null, context: null, statusSource: "transcript", needsYou: null, reconnecting: true, exitMessage: null }], live: [], notice: null });
    document.body.append(block);
    try {
      expect(firstPaintState(undefined).agents.map((a) => [a.name, a.reconnecting])).toEqual([["Agent #1", true]]);
      block.textContent = "{not json";
      expect(firstPaintState(undefined).agents).toEqual([]);
    } finally {
      block.remove();
    }
  });
});

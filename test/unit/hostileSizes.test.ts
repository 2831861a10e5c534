/**
 * Inputs sized to hurt: thousands of tools open at once, a path made of slashes. The card must
 * still show the right thing, without the engine stalling (the figures are in `npm run bench`;
 * here, only vitest's default timeout stands between a quadratic cost and a pass).
 */
import { describe, expect, it } from "vitest";
import { ActiveTools } from "../../src/core/agent/activeTools";
import { initialAgentState, reduceAgent } from "../../src/core/agent/agentState";
import { toolLabel } from "../../src/core/labels/toolLabels";
import { SessionEngine } from "../../src/core/engine/sessionEngine";

const tool = (id: string, parent: string | null = null) => ({ id, name: "Bash", label: `Running: ${id}`, action: id, parent, background: false });

describe("the tools in flight", () => {
  it("20,000 tools opened in one turn all show as running, and all end with the turn", () => {
    const engine = new SessionEngine();
    engine.ingest([{ type: "user", message: { role: "user", content: "go" } }]);
    for (let i = 0; i < 20_000; i++) {
      engine.ingest([{ type: "assistant", message: { id: `m${i}`, content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: "true" } }] } }]);
    }
    expect(engine.state.activeTools.size).toBe(20_000);
    expect(engine.state.activeTools.list()[19_999]?.id).toBe("t19999");
    const ends = engine.ingest([{ type: "system", subtype: "turn_duration", durationMs: 1 }]);
    expect(ends.filter((e) => e.kind === "toolEnd")).toHaveLength(20_000);
    expect(engine.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(engine.state.activeTools.size).toBe(0);
    engine.dispose();
  });

  it("30,000 open tools with a text reply between each: all running, no text ends the turn, all end with it", () => {
    // A scan of every open tool per text record made this quadratic (30,000: 28.9 s).
    const engine = new SessionEngine();
    engine.ingest([{ type: "user", message: { role: "user", content: "go" } }]);
    for (let i = 0; i < 30_000; i++) {
      engine.ingest([{ type: "assistant", message: { id: `m${i}`, content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: "true" } }] } }]);
      engine.ingest([{ type: "assistant", message: { id: `x${i}`, content: [{ type: "text", text: "still going" }], stop_reason: "end_turn" } }]);
    }
    expect(engine.state).toMatchObject({ status: "active", awaitingIdle: false });
    expect(engine.state.activeTools.size).toBe(30_000);
    const ends = engine.ingest([{ type: "system", subtype: "turn_duration", durationMs: 1 }]);
    expect(ends.filter((e) => e.kind === "toolEnd")).toHaveLength(30_000);
    expect(engine.state.activeTools.size).toBe(0);
    engine.dispose();
  });

  it("40,000 old-style sub-agent records (inline, isSidechain), none in a known chain: the first claims the Agent call, the rest none", () => {
    // Each record whose chain is not known looked for an Agent call to claim through every open tool (40,000: 16 s).
    const engine = new SessionEngine();
    engine.ingest([{ type: "user", message: { role: "user", content: "go" } }]);
    engine.ingest([{ type: "assistant", message: { id: "a", content: [{ type: "tool_use", id: "agent", name: "Task", input: { prompt: "look" } }] } }]);
    const events = [];
    for (let i = 0; i < 40_000; i++) {
      const content = [{ type: "tool_use", id: `s${i}`, name: "Bash", input: { command: "true" } }];
      events.push(...engine.ingest([{ type: "assistant", isSidechain: true, uuid: `u${i}`, parentUuid: `p${i}`, message: { id: `s${i}`, content } }]));
    }
    const starts = events.filter((e) => e.kind === "toolStart");
    expect(starts).toHaveLength(40_000);
    expect(starts[0]).toMatchObject({ parent: "agent" });
    // One call, claimed once: the others have no call of theirs to be shown under.
    expect(starts.slice(1).every((e) => e.kind === "toolStart" && e.parent === null)).toBe(true);
    expect(engine.state.activeTools.size).toBe(40_001);
    engine.dispose();
  });

  it("a reduced state leaves the state it came from unchanged (the reducer stays pure)", () => {
    const one = reduceAgent(initialAgentState, { kind: "toolStart", id: "a", name: "Bash", input: {}, label: "A", action: "a", parent: null });
    const two = reduceAgent(one, { kind: "toolStart", id: "b", name: "Bash", input: {}, label: "B", action: "b", parent: null });
    const ended = reduceAgent(two, { kind: "toolEnd", id: "a", outcome: "done", parent: null });
    const background = reduceAgent(two, { kind: "backgroundLaunch", id: "a" });
    // Read in any order, every version still says what it said when it was made.
    expect(one.activeTools.list().map((t) => t.id)).toEqual(["a"]);
    expect(ended.activeTools.list().map((t) => t.id)).toEqual(["b"]);
    expect(two.activeTools.list().map((t) => [t.id, t.background])).toEqual([
      ["a", false],
      ["b", false],
    ]);
    expect(background.activeTools.list().map((t) => [t.id, t.background])).toEqual([
      ["a", true],
      ["b", false],
    ]);
    expect(initialAgentState.activeTools.size).toBe(0);
  });

  it("a tool started again under an open id leaves the state as it was (the reducer's guard)", () => {
    let state = reduceAgent(initialAgentState, { kind: "toolStart", id: "a", name: "Bash", input: {}, label: "Running: a", action: "a", parent: null, at: 1 });
    const again = reduceAgent(state, { kind: "toolStart", id: "a", name: "Bash", input: {}, label: "Running: other", action: "other", parent: null, at: 2 });
    expect(again).toBe(state);
    expect(again.activeTools.get("a")?.label).toBe("Running: a");
    state = reduceAgent(state, { kind: "toolEnd", id: "a", outcome: "done", parent: null, at: 3 });
    expect(state.activeTools.size).toBe(0);
    expect(reduceAgent(state, { kind: "toolEnd", id: "a", outcome: "done", parent: null, at: 4 })).toBe(state);
  });

  it("keeps start order across versions read out of turn", () => {
    const base = ActiveTools.of([tool("a"), tool("b"), tool("c")]);
    const withoutA = base.without("a");
    const withD = withoutA.with(tool("d"));
    expect(base.has("a")).toBe(true); // reroots back to `base`: a is re-inserted
    expect(withD.list().map((t) => t.id)).toEqual(["b", "c", "d"]);
    expect(base.list().map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(withoutA.size).toBe(2);
    // withNew on an older version: its own contents decide, not the newest version's.
    expect(base.withNew(tool("a"))).toBe(base);
    expect(
      withoutA
        .withNew(tool("a"))
        .list()
        .map((t) => t.id),
    ).toEqual(["b", "c", "a"]);
    expect(withD.list().map((t) => t.id)).toEqual(["b", "c", "d"]);
  });
});

describe("labels of hostile paths", () => {
  it("a path of 200,000 slashes before a name still reads as that name", () => {
    expect(toolLabel("Read", { file_path: `${"/".repeat(200_000)}x` })).toBe("Reading x");
    expect(toolLabel("Read", { file_path: `/a/${"\\".repeat(200_000)}b/\\//` })).toBe("Reading b");
  });
});

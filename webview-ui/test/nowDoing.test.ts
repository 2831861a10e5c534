import { describe, expect, it } from "vitest";
import { detailAgentId } from "../src/detailChoice";
import { nowDoing } from "../src/nowDoing";
import { agent, prompt, tool } from "./helpers";

describe("what an agent's line says it does now", () => {
  it("the newest running tool, from when it ran (after its wait for the user)", () => {
    const tools = [
      tool({ id: "a", label: "Reading a.ts", startedAt: 1_000 }),
      tool({ id: "b", label: "Running: npm test", startedAt: 5_000, waitedMs: 2_000 }),
    ];
    expect(nowDoing(agent({ status: "active", tools }))).toEqual({ text: "Running: npm test", since: 7_000 });
  });

  it("a sub-agent's own tool rather than its Subtask row; a background one only when nothing else runs", () => {
    const subtask = tool({ id: "task", name: "Agent", label: "Subtask: check", startedAt: 1_000 });
    const inner = tool({ id: "in", label: "Searching for TODO", parent: "task", startedAt: 2_000 });
    expect(nowDoing(agent({ status: "active", tools: [subtask, inner] }))?.text).toBe("Searching for TODO");
    const background = tool({ id: "bg", label: "Subtask: watch", background: true, startedAt: 3_000 });
    expect(nowDoing(agent({ status: "waiting", tools: [background] }))?.text).toBe("Background: Subtask: watch");
    expect(nowDoing(agent({ status: "active", tools: [background, tool({ id: "fg", label: "Reading x.ts", startedAt: 1 })] }))?.text).toBe("Reading x.ts");
  });

  it("what it waits on when its question or dialog is in the terminal (no prompt to answer here); nothing when idle or exited", () => {
    expect(nowDoing(agent({ status: "needsYou", needsYou: { kind: "question" } }))).toEqual({ text: "Waiting on a question in its terminal" });
    // A prompt answered on the panel: the line says what runs, the prompt is shown beside it.
    const waiting = agent({ status: "needsYou", needsYou: { kind: "permission" }, tools: [tool({ id: "t", label: "Running: touch x", startedAt: 1 })] });
    expect(nowDoing({ ...waiting, prompts: [prompt({ id: "p" })] })?.text).toBe("Running: touch x");
    expect(nowDoing(agent({ status: "waiting", tools: [tool({ id: "d", outcome: "done" })] }))).toBeNull();
    expect(nowDoing(agent({ status: "exited", tools: [tool({ id: "r" })] }))).toBeNull();
  });
});

describe("whose details show", () => {
  const agents = [agent({ index: 1 }), agent({ index: 2, status: "needsYou" }), agent({ index: 3, focused: true })];
  it("the one asked for while it is there, else the terminal in front, else the first needing you, else the first", () => {
    expect(detailAgentId(agents, "agent-1")).toBe("agent-1");
    expect(detailAgentId(agents, "agent-9")).toBe("agent-3");
    expect(detailAgentId(agents.slice(0, 2), null)).toBe("agent-2");
    expect(detailAgentId([agent({ index: 4 }), agent({ index: 5 })], null)).toBe("agent-4");
    expect(detailAgentId([], null)).toBeUndefined();
  });
});

describe("a call whose prompt is up", () => {
  it("is what the agent does now, in its own words, with no clock", () => {
    const waiting = tool({ id: "w", label: "Waiting for you: touch x", outcome: "waiting", startedAt: 5 });
    expect(nowDoing(agent({ status: "needsYou", needsYou: { kind: "permission" }, tools: [waiting], prompts: [prompt({ id: "p" })] }))).toEqual({
      text: "Waiting for you: touch x",
    });
  });
});

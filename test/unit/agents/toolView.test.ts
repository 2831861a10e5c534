import { describe, expect, it } from "vitest";
import { toolView } from "../../../src/agents/toolView";
import type { ToolCall } from "../../../src/core/agent/toolCalls";

describe("toolView: a tool row for the panel", () => {
  it("carries the row's fields, times only when known", () => {
    const call: ToolCall = { id: "t1", name: "Bash", label: "Running: npm test", parent: null, outcome: "running", background: false, startedAt: 1000 };
    expect(toolView(call)).toStrictEqual({ id: "t1", name: "Bash", label: "Running: npm test", parent: null, outcome: "running", background: false, startedAt: 1000 });
  });

  it("sends nothing else that rides on the object (the core may carry more than the protocol)", () => {
    const call = { id: "t2", name: "Read", label: "Reading a.ts", parent: "t1", outcome: "done", background: false, startedAt: 1, endedAt: 2, input: { file_path: "/secret" } } as ToolCall;
    expect(Object.keys(toolView(call)).sort()).toEqual(["background", "endedAt", "id", "label", "name", "outcome", "parent", "startedAt"]);
  });
});

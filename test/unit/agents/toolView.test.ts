import { describe, expect, it } from "vitest";
import { toolView } from "../../../src/agents/agent/toolView";
import type { ShownRow } from "../../../src/core/agent/shownRows";

describe("toolView: a tool row for the panel", () => {
  it("carries the row's fields, times only when known", () => {
    const row: ShownRow = {
      id: "t1",
      name: "Bash",
      label: "Running: npm test",
      action: "npm test",
      parent: null,
      outcome: "running",
      background: false,
      startedAt: 1000,
    };
    expect(toolView(row)).toStrictEqual({
      id: "t1",
      name: "Bash",
      label: "Running: npm test",
      parent: null,
      outcome: "running",
      background: false,
      startedAt: 1000,
    });
  });

  it("sends nothing else that rides on the object (the core may carry more than the protocol)", () => {
    const row = {
      id: "t2",
      name: "Read",
      label: "Reading a.ts",
      action: "read a.ts",
      parent: "t1",
      outcome: "done",
      background: false,
      startedAt: 1,
      endedAt: 2,
      input: { file_path: "/secret" },
    } as ShownRow;
    expect(Object.keys(toolView(row)).sort()).toEqual(["background", "endedAt", "id", "label", "name", "outcome", "parent", "startedAt"]);
  });

  it("marks a sandboxed agent's Bash row: ran unasked in the sandbox, or asked to leave it; an unsandboxed agent's row is unmarked", () => {
    const row: ShownRow = { id: "t1", name: "Bash", label: "Ran: npm test", action: "npm test", parent: null, outcome: "done", background: false };
    expect(toolView(row, true).sandbox).toBe("unasked");
    expect(toolView({ ...row, leavesSandbox: true, outcome: "denied" }, true).sandbox).toBe("askedToLeave");
    expect(toolView({ ...row, waitedMs: 900 }, true).sandbox).toBeUndefined();
    expect("sandbox" in toolView(row, false)).toBe(false);
  });
});

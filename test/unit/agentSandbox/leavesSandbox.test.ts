/** A Bash call's request to leave Claude Code's sandbox, as its transcript tool_use says it (CLI 2.1.332: `dangerouslyDisableSandbox: true`). */
import { describe, expect, it } from "vitest";
import { foldToolCall, type ToolCall } from "../../../src/core/agent";
import type { TranscriptEvent } from "../../../src/core/transcript";

const start = (id: string, name: string, input: unknown): TranscriptEvent => ({
  kind: "toolStart",
  id,
  name,
  input,
  label: id,
  action: id,
  parent: null,
  at: 0,
});

describe("a tool call that asks to leave the sandbox", () => {
  it("is known by its Bash input's dangerouslyDisableSandbox: true, and by nothing else", () => {
    const calls = new Map<string, ToolCall>();
    foldToolCall(calls, start("a", "Bash", { command: "curl x", dangerouslyDisableSandbox: true }));
    foldToolCall(calls, start("b", "Bash", { command: "ls" }));
    foldToolCall(calls, start("c", "Bash", { command: "ls", dangerouslyDisableSandbox: "true" }));
    foldToolCall(calls, start("d", "Read", { file_path: "/x", dangerouslyDisableSandbox: true }));
    foldToolCall(calls, start("e", "Bash", null));
    expect([...calls.values()].map((c) => [c.id, c.leavesSandbox ?? false])).toEqual([
      ["a", true],
      ["b", false],
      ["c", false],
      ["d", false],
      ["e", false],
    ]);
  });
});

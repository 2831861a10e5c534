import { describe, expect, it } from "vitest";
import { ToolUseMatcher } from "../../../src/core/mcp/toolUseMatcher";

describe("ToolUseMatcher", () => {
  it("matches by the tool_use id the CLI sends, whatever the order calls arrive in", () => {
    const m = new ToolUseMatcher();
    for (let i = 1; i <= 10; i++) m.toolUseStarted("a1", `toolu_${i}`, "execute_command");
    // A batch of 10 where the 5 that needed approval reach the server last, in reverse.
    const order = [2, 4, 6, 8, 10, 9, 7, 5, 3, 1];
    for (const i of order) expect(m.match({ callId: `c${i}`, tool: "execute_command", agentId: "a1", toolUseId: `toolu_${i}` })).toBe(`toolu_${i}`);
  });

  it("without the id, takes the oldest pending tool_use of that tool not yet matched, never one twice", () => {
    const m = new ToolUseMatcher();
    m.toolUseStarted("a1", "u1", "read_file");
    m.toolUseStarted("a1", "u2", "execute_command");
    m.toolUseStarted("a1", "u3", "execute_command");
    expect(m.match({ callId: "c1", tool: "execute_command", agentId: "a1" })).toBe("u2");
    expect(m.match({ callId: "c2", tool: "execute_command", agentId: "a1" })).toBe("u3");
    expect(m.match({ callId: "c3", tool: "execute_command", agentId: "a1" })).toBeUndefined();
    // Asking again for a matched call gives the same answer.
    expect(m.match({ callId: "c1", tool: "execute_command", agentId: "a1" })).toBe("u2");
  });

  it("keeps agents apart", () => {
    const m = new ToolUseMatcher();
    m.toolUseStarted("a1", "u1", "read_file");
    m.toolUseStarted("a2", "u2", "read_file");
    expect(m.match({ callId: "c1", tool: "read_file", agentId: "a2" })).toBe("u2");
  });

  it("a denied tool_use, and the queued ones the denial cascades to, are no longer candidates", () => {
    const m = new ToolUseMatcher();
    for (const id of ["u1", "u2", "u3"]) m.toolUseStarted("a1", id, "write_file");
    // The user denied u1; the CLI denies u2 and u3 after it: all three get results.
    for (const id of ["u1", "u2", "u3"]) m.toolUseEnded("a1", id);
    m.toolUseStarted("a1", "u4", "write_file");
    expect(m.match({ callId: "c1", tool: "write_file", agentId: "a1" })).toBe("u4");
  });
});

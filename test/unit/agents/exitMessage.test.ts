import { describe, expect, it } from "vitest";
import { exitMessage } from "../../../src/agents/agent/exitMessage";

describe("exitMessage", () => {
  it("keeps the CLI's error line from a terminal's output, escapes and prompts dropped", () => {
    const output = "\u001b]633;C\u0007\u001b[31merror: unknown option '--modle'\u001b[39m\r\n(Did you mean --model?)\r\n";
    expect(exitMessage(output, 1)).toBe("error: unknown option '--modle'");
  });

  it("falls back to the last line, then to the exit code, and says nothing for a quiet clean exit", () => {
    expect(exitMessage("Starting…\nBye for now\n", 3)).toBe("Bye for now");
    expect(exitMessage("\u001b[2K\r\n", 127)).toBe("exit code 127");
    expect(exitMessage("", 0)).toBeNull();
  });

  it("bounds a huge line", () => {
    expect(exitMessage(`error: ${"x".repeat(10_000)}`, 1)?.length).toBe(300);
  });
});

/**
 * Attack class: a paused agent fed more work by Arcadia itself. Everything Arcadia types into an
 * agent's terminal (a task, review comments, a rebase request, a race's follow-up) goes through
 * one gate, TerminalHandle.type of the VS Code terminal host: refused for a paused agent, nothing
 * reaches its terminal, the user is told why, and the caller's `type` rejects with the reason.
 * Against the host without the gate: the text was typed into the paused agent's terminal.
 */
import { describe, expect, it, vi } from "vitest";

const warnings: string[] = [];
const terminals = [
  { name: "Agent #1", sendText: vi.fn(), show: vi.fn() },
  { name: "Agent #2", sendText: vi.fn(), show: vi.fn() },
];
vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    window: {
      terminals,
      showWarningMessage: (message: string) => (warnings.push(message), Promise.resolve(undefined)),
    },
    env: { shell: "/bin/bash" },
  },
}));

const { VscodeTerminalHost } = await import("../../../src/vscode/agent/terminalHost");

describe("typing into a paused agent's terminal", () => {
  it("is refused with the reason, types nothing, and tells the user; another agent is typed to", async () => {
    const reason = "nothing typed to Agent #1: Paused at budget — $5.02 of $5.00. Raise… its budget on its card first.";
    const host = new VscodeTerminalHost({ visible: () => false, show: async () => undefined }, (handle) => (handle.name === "Agent #1" ? reason : undefined));
    const [paused, running] = host.all();
    await expect(paused!.type!("Please rebase your branch fix onto main")).rejects.toThrow(reason);
    expect(terminals[0]!.sendText).not.toHaveBeenCalled();
    expect(warnings).toEqual([`Arcadia: ${reason}`]);

    await running!.type!("Review comments: …");
    expect(terminals[1]!.sendText.mock.calls).toEqual([
      ["Review comments: …", false],
      ["\r", false],
    ]);
  });
});

/**
 * A call the budget's gate denies never runs, and the CLI sends no hook to say so (no PostToolUse,
 * no PermissionDenied for a hook's own "deny"). Its row must not show it running: in CI, a
 * runaway's 17th sub-agent read "Subtask: Helper 17 0s" on its line while the terminal said "Not
 * run". Through the window's hook endpoint as wired (rows, prompts, collision guard, budget gate):
 * the denied call's row ends "denied" at the moment it is denied; the allowed ones run on.
 * Against the endpoint without it (the gate told only the budget): the 6th call stayed open.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    workspace: { workspaceFolders: [], getConfiguration: () => ({ get: (_key: string, fallback: unknown) => fallback }) },
  },
}));

const { createHookEndpoint } = await import("../../../src/vscode/server/hookEndpoint");
const { BudgetBook } = await import("../../../src/agents/budget/budgetBook");
const { SpawnAlarm } = await import("../../../src/agents/budget/spawnAlarm");

const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const helper = (i: number) => ({
  hook_event_name: "PreToolUse",
  session_id: "s1",
  tool_name: "Agent",
  tool_use_id: `toolu_helper_${i}`,
  tool_input: { description: `Helper ${i}`, prompt: `HELPER-TASK ${i}`, subagent_type: "general-purpose" },
});

describe("a sub-agent call denied by the runaway brake", () => {
  it("ends its row as denied at once; the five let through still run", async () => {
    const budget = new BudgetBook({ settings: () => ({ maxSubagents: 5 }), state: { load: () => undefined, save: () => undefined }, log: () => undefined });
    const parts = createHookEndpoint(log, { isKnown: () => true, name: () => "Agent #1" }, budget, new SpawnAlarm());
    for (let i = 1; i <= 7; i++) await parts.hooks({ agentId: "a1", input: helper(i) } as never);

    const rows = parts.hookTools.tools("a1");
    expect(rows.map((r) => [r.id, r.outcome ?? "running"])).toEqual([
      ...[1, 2, 3, 4, 5].map((i) => [`toolu_helper_${i}`, "running"]),
      ["toolu_helper_6", "denied"],
      ["toolu_helper_7", "denied"],
    ]);
    expect(budget.budgetView("a1")?.brake).toContain("at most 5 run at once");
  });
});

/**
 * Attack class: a race member escaping its race's budget. The race's cap holds every member once
 * their spends together reach it; a member that moves to a new session (`/clear`, which its own
 * typing can do) starts a session that has spent nothing, and a member that keeps clearing makes
 * more sessions than any bound kept. The race's sum is every session a member was seen in, kept
 * past the move, and sessions beyond the bound are folded into one sum, never dropped.
 * Over real HTTP as the CLI calls the hooks, with the real budget book, race book and transcripts:
 * the member's next call (the shell, Arcadia's own pre-allowed tools) is denied with the race's
 * reason, and Arcadia's own tools refuse it where hooks are silenced. Each test failed against a
 * weakened book (noted at each).
 */
import { request as httpRequest } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LiveSubagents, withBudgetGate } from "../../../src/core/budget";
import { type HookEndpoint, type RunningLoopbackServer, startLoopbackServer } from "../../../src/core/server";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import type { BudgetBook } from "../../../src/agents/budget/budgetBook";
import { raceWorld, type RaceWorld, reply } from "../../support/raceBudgetWorld";
import { useTempDirs } from "../../support/tempDir";
import { startArcadiaServer } from "./support/arcadiaServer";

const tempDir = useTempDirs();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const RACE_REASON = "Arcadia: the agents of this race (fix-title) reached their $0.50 budget. Stop and wait; the user can raise it.";

/** The real hook server with the budget's gate (the book's verdict) in front of an endpoint that would allow everything. */
async function gatedServer(book: BudgetBook): Promise<RunningLoopbackServer> {
  const allowAll: HookEndpoint = () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
  const hooks = withBudgetGate(allowAll, { verdict: (id) => book.verdict(id), maxSubagents: () => 5, subagents: new LiveSubagents(), log: () => undefined });
  const server = await startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, hooks, log: () => undefined });
  cleanups.push(() => server.close());
  return server;
}

/** A PreToolUse of `tool` from `agentId`, as the CLI posts it: the answer's decision and reason. */
function preToolUse(server: RunningLoopbackServer, agentId: string, tool: string): Promise<{ permissionDecision?: string; permissionDecisionReason?: string }> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${server.tokenFor(agentId)}`, "x-arcadia-agent": agentId };
    const req = httpRequest(server.hooksUrl, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve((JSON.parse(text) as { hookSpecificOutput?: object }).hookSpecificOutput ?? {}));
    });
    req.on("error", reject);
    req.end(
      JSON.stringify({
        session_id: `s-${agentId}`,
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: { command: "ls" },
        tool_use_id: `t${Math.random()}`,
      }),
    );
  });
}

/** The race fix-title capped at $0.50, its members m1 and m2 having spent $0.30 and $0.22 (paused), and a1 outside it. */
async function pausedRace(): Promise<{ w: RaceWorld; dir: string }> {
  const dir = tempDir();
  writeFileSync(join(dir, "m1-a.jsonl"), reply({ output: 20_000 })); // $0.30
  writeFileSync(join(dir, "m2.jsonl"), reply({ input: 73_334 })); // $0.22
  const w = await raceWorld(["m1", "m2"], { perRace: 0.5 });
  cleanups.push(() => w.dispose());
  await w.read("m1", join(dir, "m1-a.jsonl"), 0.3);
  await w.read("m2", join(dir, "m2.jsonl"), 0.220002);
  expect(w.book.verdict("m1")).toMatchObject({ paused: true, scope: "group" });
  return { w, dir };
}

describe("a race member moving to a new session", () => {
  it("/clear: the session it left still counts, it and the others stay paused, and Arcadia's own tools refuse it", async () => {
    // Weakened (the race's sum of its members' current sessions): after the /clear it was $0.22 and m1's Bash call was allowed.
    const { w, dir } = await pausedRace();
    const server = await gatedServer(w.book);
    writeFileSync(join(dir, "m1-b.jsonl"), reply({ output: 100 })); // $0.0015 in the new session
    await w.read("m1", join(dir, "m1-b.jsonl"), 0.0015);
    for (const [agent, tool] of [
      ["m1", "Bash"],
      ["m1", "mcp__arcadia__execute_command"],
      ["m2", "Edit"],
    ] as const) {
      expect(await preToolUse(server, agent, tool)).toEqual({ hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: RACE_REASON });
    }
    expect(w.book.budgetView("m1")?.paused).toBe("Paused at the race's budget — $0.52 of $0.50");
    // Control: an agent outside the race is answered as before.
    expect((await preToolUse(server, "a1", "Bash")).permissionDecision).toBe("allow");
    // Where hooks are silenced, Arcadia's own tools refuse it too, and run nothing.
    const arcadia = await startArcadiaServer({ tracker: { refusal: (id) => w.book.refusal(id) } });
    cleanups.push(() => arcadia.close());
    const result = await (await arcadia.client("m1")).callTool({ name: "execute_command", arguments: { command: "echo spent" } });
    expect(JSON.stringify(result.content)).toContain("reached their $0.50 budget");
    expect(arcadia.commandsStarted).toEqual([]);
  });

  it("clearing again and again, beyond the sessions a race keeps one by one: none is dropped from the sum", async () => {
    // Weakened (the oldest session dropped past the bound, not folded): the race fell to $0.15 and m1's call was allowed.
    const { w, dir } = await pausedRace();
    const server = await gatedServer(w.book);
    for (let i = 0; i < 110; i++) {
      const path = join(dir, `m1-clear-${i}.jsonl`);
      writeFileSync(path, reply({ output: 10 })); // $0.00015 each
      await w.read("m1", path, 0.00015);
    }
    expect(await preToolUse(server, "m1", "Bash")).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: RACE_REASON });
    expect(w.book.verdict("m2")).toMatchObject({ paused: true, scope: "group", spentUsd: expect.closeTo(0.520002 + 110 * 0.00015, 6) });
  });
});

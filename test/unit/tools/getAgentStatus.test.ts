/**
 * get_agent_status through the real MCP server and SDK client: the agent calling learns what its
 * own card shows (name, status, context, tokens and cost, branch, a limit) — never another agent's,
 * a cost not read yet is unknown (never $0), and a session without a card is told why.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentCardFacts } from "../../../src/core/tools/ports";
import { type Harness, startHarness } from "./toolHarness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const usage = (costUsd: number, unpricedModels: string[] = []) => ({
  tokens: { input: 1200, output: 340, cacheRead: 50_000, cacheWrite: 4_000 },
  costUsd,
  unpricedModels,
});

function card(over: Partial<AgentCardFacts>): AgentCardFacts {
  return { name: "Agent #1", status: "active", context: null, usage: null, worktree: null, branch: null, limit: null, ...over };
}

describe("get_agent_status", () => {
  it("tells the calling agent its own card, never another's, and follows it from call to call", async () => {
    const cards = new Map<string, AgentCardFacts>([
      ["agent-1", card({ name: "Parser fix", context: { usedTokens: 50_000, windowTokens: 200_000 }, usage: usage(0.123456), branch: "fix/parser" })],
      ["agent-2", card({ name: "Agent #2", usage: usage(9.99), branch: "main" })],
    ]);
    h = await startHarness({ agentCard: (id) => cards.get(id) });
    const first = await h.call("get_agent_status", {});
    expect(first.isError).toBe(false);
    expect(first.body).toMatchObject({
      status: "ok",
      name: "Parser fix",
      agent_status: "active",
      agent_status_words: "working",
      context: { used_tokens: 50_000, window_tokens: 200_000, used_percent: 25 },
      tokens: { input: 1200, output: 340, cache_read: 50_000, cache_write: 4_000 },
      cost_usd: 0.1235,
      branch: "fix/parser",
    });
    expect(first.text).not.toContain("9.99");

    cards.set(
      "agent-1",
      card({ name: "Parser fix", status: "waiting", worktree: { branch: "arcadia/parser", base: "main" }, limit: "Usage limit reached — resets at 14:00" }),
    );
    const second = await h.call("get_agent_status", {});
    expect(second.body).toMatchObject({
      agent_status_words: "idle: its turn is over",
      branch: "arcadia/parser",
      worktree_base: "main",
      limit: "Usage limit reached — resets at 14:00",
    });
  });

  it("says a cost it cannot know is unknown, not $0", async () => {
    const cards = new Map([["agent-1", card({ usage: null })]]);
    h = await startHarness({ agentCard: (id) => cards.get(id) });
    const notRead = await h.call("get_agent_status", {});
    expect(notRead.body).toMatchObject({ cost_usd: null, tokens: null });
    expect(notRead.body.cost_note).toMatch(/unknown/);

    cards.set("agent-1", card({ usage: usage(0.5, ["claude-future-9"]) }));
    const partly = await h.call("get_agent_status", {});
    expect(partly.body.cost_usd).toBe(0.5);
    expect(partly.body.cost_note).toMatch(/without claude-future-9.*unknown/);
  });

  it("tells its budget in the card's words: what it spent against the cap, and that it is paused at it", async () => {
    const cards = new Map([["agent-1", card({})]]);
    h = await startHarness({ agentCard: (id) => cards.get(id) });
    expect((await h.call("get_agent_status", {})).body.budget).toBeNull();

    const spending = { paused: null, spent: "$1.20 of $5.00", rate: "$3.00/h", eta: "at this rate the cap is reached in 25 min", brake: null, group: null };
    cards.set("agent-1", card({ budget: spending }));
    expect((await h.call("get_agent_status", {})).body.budget).toEqual({
      paused: false,
      spent: "$1.20 of $5.00",
      burn_rate: "$3.00/h",
      cap_reached_in: "at this rate the cap is reached in 25 min",
      subagent_brake: null,
    });

    cards.set("agent-1", card({ budget: { ...spending, paused: "Paused at budget — $5.02 of $5.00", spent: "$5.02 of $5.00", eta: null } }));
    const paused = await h.call("get_agent_status", {});
    expect(paused.isError).toBe(false);
    expect(paused.body.budget).toMatchObject({ paused: true, paused_words: "Paused at budget — $5.02 of $5.00", spent: "$5.02 of $5.00" });

    // A race member: what its race spent of the race's cap, and a pause by it in the card's words.
    const byRace = { ...spending, paused: "Paused at the race's budget — $0.52 of $0.50", group: "race fix-title: $0.52 of $0.50" };
    cards.set("agent-1", card({ budget: byRace }));
    expect((await h.call("get_agent_status", {})).body.budget).toMatchObject({
      paused: true,
      paused_words: "Paused at the race's budget — $0.52 of $0.50",
      race_budget: "race fix-title: $0.52 of $0.50",
    });
  });

  it("a session with no card (not launched from the panel, or closed) is told why", async () => {
    h = await startHarness({ agentCard: () => undefined });
    const answer = await h.call("get_agent_status", {});
    expect(answer.isError).toBe(true);
    expect(answer.body.message).toMatch(/no card for this session.*not launched from Arcadia's panel/);
  });

  it("takes no input: it cannot be pointed at another agent", async () => {
    const seen: string[] = [];
    h = await startHarness({ agentCard: (id) => (seen.push(id), card({})) });
    await h.call("get_agent_status", { agentId: "agent-2", agent: "agent-2" });
    expect(seen).toEqual(["agent-1"]);
  });
});

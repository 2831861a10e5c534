/**
 * What the budget's hook gate adds to a tool call: a PreToolUse posted over real HTTP to Arcadia's
 * loopback server, as the CLI's hook does, with and without the gate in front of the same endpoint,
 * interleaved so a load swing hits both alike. The gate's verdict reads real session figures: 20
 * agents' transcripts (three models each, a few hundred replies) read by SessionCards, so each
 * call prices the agent's session, its race's (the calling agent is one of a race's five members,
 * each read for the race's sum) and the day's spend of all twenty.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BudgetBook } from "../src/agents/budget/budgetBook";
import { RaceBook } from "../src/agents/races/raceBook";
import { raceBudgetGroups } from "../src/agents/races/raceBudget";
import { memberStarted, startRace } from "../src/core/races";
import { SessionCards } from "../src/agents/sessions/sessionCards";
import { readInto } from "../test/support/sessionReads";
import { withBudgetGate } from "../src/core/budget";
import { ToolCallTracker } from "../src/core/mcp/toolCallTracker";
import { type HookEndpoint, type RunningLoopbackServer, startLoopbackServer } from "../src/core/server";
import { percentile } from "./percentile";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

const AGENTS = 20;
const REPLIES = 300;
const RUNS = 400;
const ADDED_TARGET_MS = 2;
const MODELS = ["claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"];

function transcript(agent: number): string {
  const lines: string[] = [];
  for (let i = 0; i < REPLIES; i++) {
    const usage = { input_tokens: 900, output_tokens: 300, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 1_200 };
    const message = { id: `msg_${agent}_${i}`, role: "assistant", model: MODELS[i % MODELS.length], content: [{ type: "text", text: "ok" }], usage };
    lines.push(JSON.stringify({ type: "assistant", uuid: `u${agent}-${i}`, timestamp: new Date().toISOString(), message }));
  }
  return `${lines.join("\n")}\n`;
}

function post(server: RunningLoopbackServer, agentId: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${server.tokenFor(agentId)}`, "x-arcadia-agent": agentId };
    const req = request(server.hooksUrl, { method: "POST", headers, agent: false }, (res) => res.resume().on("end", () => resolve()));
    req.on("error", reject);
    req.end(body);
  });
}

export async function budgetBenchmarks(row: Row): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "arcadia-bench-budget-"));
  const cards = new SessionCards(() => undefined);
  const book = new BudgetBook({
    settings: () => ({ perAgent: 1_000, perDay: 5_000, perRace: 3_000 }),
    state: { load: () => undefined, save: () => undefined },
    log: () => undefined,
  });
  const servers: RunningLoopbackServer[] = [];
  try {
    const read = new Promise<void>((resolve) => {
      const waiting = new Set(Array.from({ length: AGENTS }, (_, i) => `agent-${i}`));
      cards.onDidChange((ids) => (ids.forEach((id) => waiting.delete(id)), waiting.size === 0 && resolve()));
    });
    for (let i = 0; i < AGENTS; i++) {
      const path = join(dir, `session-${i}.jsonl`);
      writeFileSync(path, transcript(i));
      void readInto(cards, `agent-${i}`, path);
    }
    await read;
    book.follow(cards);
    // agent-7 runs in a race of five (agents 5 to 9): its verdict sums the race too.
    const races = new RaceBook({ load: () => undefined, save: async () => undefined });
    let race = startRace({ id: "bench", task: "bench", prompt: "p", repo: dir, base: "main", now: Date.now(), models: [null, null, null, null, null] });
    for (let n = 1; n <= 5; n++) race = memberStarted(race, `bench-${n}`, `agent-${n + 4}`);
    await races.add(race);
    book.followGroups(raceBudgetGroups(races));
    const endpoint: HookEndpoint = () => ({});
    const gated = withBudgetGate(endpoint, {
      verdict: (id) => book.verdict(id),
      maxSubagents: () => book.settings.maxSubagents,
      subagents: book.subagents,
      log: () => undefined,
    });
    const start = (hooks: HookEndpoint) => startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, hooks, log: () => undefined });
    const [plain, withGate] = [await start(endpoint), await start(gated)];
    servers.push(plain, withGate);
    const body = JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: "s",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_use_id: "toolu_1",
    });
    const once = async (server: RunningLoopbackServer) => {
      const t = performance.now();
      await post(server, "agent-7", body);
      return performance.now() - t;
    };
    for (let i = 0; i < 50; i++) await Promise.all([once(plain), once(withGate)]); // warm the JIT and the sockets
    const [without, gatedMs]: [number[], number[]] = [[], []];
    for (let i = 0; i < RUNS; i++) {
      without.push(await once(plain));
      gatedMs.push(await once(withGate));
    }
    // The verdict alone, in process: what the gate computes per call.
    const verdicts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      book.verdict("agent-7");
      verdicts.push(performance.now() - t);
    }
    for (const samples of [without, gatedMs, verdicts]) samples.sort((a, b) => a - b);
    const added = percentile(gatedMs, 50) - percentile(without, 50);
    const figures = (samples: number[]) => `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 99).toFixed(2)} ms`;
    row("PreToolUse over HTTP, no gate (p50 / p99)", figures(without), "(the same hook, for comparison)", undefined);
    row(`PreToolUse with the budget gate (p50 / p99)`, figures(gatedMs), `added p50 ≤ ${ADDED_TARGET_MS} ms`, added <= ADDED_TARGET_MS);
    row("  added by the gate (p50)", `${added.toFixed(2)} ms`, `${AGENTS} agents, ${REPLIES} replies each, the caller in a race of 5`, undefined);
    row(
      "  the pause rule's verdict alone (p50 / p99)",
      `${(percentile(verdicts, 50) * 1000).toFixed(0)} / ${(percentile(verdicts, 99) * 1000).toFixed(0)} µs`,
      "(in process)",
      undefined,
    );
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    book.dispose();
    cards.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

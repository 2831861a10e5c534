/**
 * The budget with the real CLI 2.1.332 and the scripted model reporting realistic token counts
 * (`usage: "fromRequestSize"`, mostly prompt-cache reads, as the API reports them): Arcadia's hook
 * file (curl + sh, as launched from VS Code), its server, the budget's gate and the session figures
 * read from the real transcript in this process. An agent capped at $0.05 runs until its transcript
 * prices past the cap; its next tool call is denied and the model reads why; no later call runs;
 * the overshoot is printed. Raise… and the user's next prompt let it go on. A runaway that starts
 * eight sub-agents at once gets three (arcadia.budget.maxSubagents = 3); the card says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetBook } from "../../src/agents/budget/budgetBook";
import { SessionCards } from "../../src/agents/sessions/sessionCards";
import { LiveSessionReads } from "../support/sessionReads";
import { type BudgetDenial, withBudgetGate } from "../../src/core/budget";
import type { HookEndpoint, HookInput } from "../../src/core/server";
import type { RawBudgetSettings } from "../../src/core/budget";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { blocks } from "../rig/transcripts.js";
import { type HookedClis, startHookedClis } from "../support/hookedClis";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("the budget with the real CLI");
const STEPS = 30;
const echo = (what: string) => ({ tools: [{ name: "Bash", input: { command: `echo ${what}`, description: `Say ${what}` } }] });
const helper = (i: number) => ({ name: "Agent", input: { description: `Helper ${i}`, prompt: `HELPER-TASK ${i}`, subagent_type: "general-purpose" } });
const facts: string[] = [];

describe.skipIf(!available)("the budget (real CLI)", () => {
  let rig: Rig;
  let clis: HookedClis;
  let book: BudgetBook;
  let reads: LiveSessionReads;
  let settings: RawBudgetSettings = {};
  const seen: { input: HookInput; at: number; denied?: BudgetDenial; spentUsd?: number }[] = [];
  const sessions: Record<string, { transcriptPath: string; cwd: string }> = {};

  beforeAll(async () => {
    rig = await createRig({
      script: {
        usage: "fromRequestSize",
        conversations: [
          { match: "HELPER-TASK", steps: [{ text: "Helped.", delayMs: 3000 }] },
          // Before the first prompt's conversation: a later prompt of it is matched by itself.
          { match: "Go on", matchLatestPrompt: true, steps: [echo("after-raise"), { text: "Went on." }] },
          { match: "Run the numbered steps", steps: [...Array.from({ length: STEPS }, (_, i) => echo(`step-${i + 1}`)), { text: "All steps done." }] },
          { match: "Spawn the helpers", steps: [{ tools: Array.from({ length: 8 }, (_, i) => helper(i + 1)) }, { text: "Spawned." }] },
        ],
      },
    });
    const cards = new SessionCards(() => undefined);
    reads = new LiveSessionReads(cards);
    book = new BudgetBook({ settings: () => settings, state: { load: () => undefined, save: () => undefined }, log: (m) => console.log(m) });
    book.follow(cards);
    const feed: HookEndpoint = ({ agentId, input }) => {
      seen.push({ input, at: Date.now() });
      const session = sessions[agentId];
      if (session) reads.touch(agentId, session.transcriptPath);
      return {};
    };
    const hooks = withBudgetGate(feed, {
      verdict: (id) => book.verdict(id),
      maxSubagents: () => book.settings.maxSubagents,
      subagents: book.subagents,
      denied: (id, denial) => {
        const verdict = book.verdict(id);
        Object.assign(seen.at(-1)!, { denied: denial, spentUsd: verdict.paused ? verdict.spentUsd : undefined });
        book.denied(id, denial);
      },
      log: (m) => console.log(m),
    });
    clis = await startHookedClis(rig, { hooks });
  });

  afterAll(async () => {
    await reads?.dispose();
    await clis?.dispose();
    await rig?.dispose();
    if (facts.length) console.log(`the budget with the real CLI:\n  ${facts.join("\n  ")}`);
  });

  async function launch(agentId: string, env: Record<string, string> = {}) {
    const session = await clis.launch(agentId, { args: ["--allowedTools", "Bash,Agent"], env });
    sessions[agentId] = { transcriptPath: session.transcriptPath(), cwd: rig.workspace };
    return session;
  }

  const ran = (what: string) =>
    seen.some((s) => s.input.hook_event_name === "PostToolUse" && JSON.stringify(s.input.tool_input ?? {}).includes(`echo ${what}`));

  it("capped at $0.05: paused at its next tool call after crossing, the model told why, nothing more runs; Raise… lets it go on", async () => {
    settings = { perAgent: 0.05 };
    book.settingsChanged();
    seen.length = 0;
    const agent = await launch("agent-1");
    await agent.submit("Run the numbered steps");
    await agent.waitForScreen(/All steps done\./, 120_000);
    await agent.waitForIdle();

    const first = seen.findIndex((s) => s.denied?.kind === "paused");
    expect(first).toBeGreaterThan(0);
    const deniedAt = seen[first]!;
    const stepsRun = Array.from({ length: STEPS }, (_, i) => `step-${i + 1}`).filter(ran);
    const firstDenied = Number(/step-(\d+)/.exec(JSON.stringify(deniedAt.input.tool_input))?.[1]);
    // The steps before the first denial ran, none from it on (a PostToolUse is an async hook: it may come after the next PreToolUse).
    expect(stepsRun).toEqual(Array.from({ length: firstDenied - 1 }, (_, i) => `step-${i + 1}`));
    expect(seen.filter((s) => s.input.hook_event_name === "PreToolUse" && !s.denied).map((s) => s.input.tool_input)).toHaveLength(firstDenied - 1);
    expect(firstDenied).toBeGreaterThan(1);
    expect(firstDenied).toBeLessThan(STEPS);
    // The model read the reason: it is the denied call's result in the transcript.
    const results = agent.records().flatMap((r) => blocks(r).filter((b) => b.type === "tool_result"));
    expect(JSON.stringify(results)).toContain("Arcadia: this agent reached its $0.05 budget. Stop and wait; the user can raise it.");
    expect(book.budgetView("agent-1")?.paused).toMatch(/^Paused at budget — \$0\.\d\d of \$0\.05$/);
    const overshoot = (deniedAt.spentUsd ?? 0) - 0.05;
    facts.push(
      `capped at $0.05: ${stepsRun.length} of ${STEPS} steps ran; the first denial at $${deniedAt.spentUsd?.toFixed(4)} spent: $${overshoot.toFixed(4)} past the cap ` +
        `(the replies under way when it crossed); the terminal shows: ${JSON.stringify(
          agent.screen
            .text()
            .match(/.*(?:budget|hook).*/i)?.[0]
            ?.trim() ?? "(no line naming the budget or a hook)",
        )}`,
    );
    expect(overshoot).toBeGreaterThanOrEqual(0);

    expect(book.raise("agent-1", 1)).toBeUndefined();
    await agent.submit("Go on");
    await agent.waitForScreen(/Went on\./, 60_000);
    await agent.waitForIdle();
    expect(ran("after-raise")).toBe(true);
    await agent.dispose();
  });

  it("a runaway starting eight sub-agents at once gets three; the others are denied and the card says why", async () => {
    settings = { maxSubagents: 3 };
    book.settingsChanged();
    seen.length = 0;
    const agent = await launch("agent-2", { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" });
    await agent.submit("Spawn the helpers");
    await agent.waitForScreen(/Spawned\./, 120_000);
    const starts = seen.filter((s) => s.input.hook_event_name === "PreToolUse" && s.input.tool_name === "Agent");
    const denied = starts.filter((s) => s.denied?.kind === "subagents");
    facts.push(`runaway: ${starts.length} Agent calls in one reply, ${denied.length} denied at maxSubagents 3`);
    expect(starts).toHaveLength(8);
    expect(denied).toHaveLength(5);
    const results = agent.records().flatMap((r) => blocks(r).filter((b) => b.type === "tool_result"));
    expect(JSON.stringify(results)).toContain("this agent already has 3 sub-agents running, its limit (arcadia.budget.maxSubagents)");
    expect(book.budgetView("agent-2")?.brake).toBe("A sub-agent was denied: at most 3 run at once (arcadia.budget.maxSubagents)");
    await agent.waitForIdle();
    await agent.dispose();
  });
});

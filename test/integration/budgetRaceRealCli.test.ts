/**
 * A race's budget with the real CLI and the scripted model reporting realistic token counts
 * (`usage: "fromRequestSize"`): two real CLIs, members of one race capped at $0.06 together
 * (arcadia.budget.perRace), each with Arcadia's hook file (curl + sh, as launched from VS Code),
 * the budget's gate and the session figures read from their real transcripts. One member spends
 * first; the other is denied at its next tool call once the two together reach the cap, though its
 * own spend is under it, and its model reads the race's reason; the first member's next call is
 * denied too. Raise… on its card (the race's cap) lets it go on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetBook } from "../../src/agents/budget/budgetBook";
import { RaceBook } from "../../src/agents/races/raceBook";
import { raceBudgetGroups } from "../../src/agents/races/raceBudget";
import { SessionCards } from "../../src/agents/sessions/sessionCards";
import { LiveSessionReads } from "../support/sessionReads";
import { type BudgetDenial, type RawBudgetSettings, withBudgetGate } from "../../src/core/budget";
import { memberStarted, startRace } from "../../src/core/races";
import type { HookEndpoint, HookInput } from "../../src/core/server";
import { localDay } from "../../src/core/usage";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { blocks } from "../rig/transcripts.js";
import { type HookedClis, startHookedClis } from "../support/hookedClis";
import { realCliAvailable } from "../support/realCli";
import { pollUntil } from "../support/waitFor";

const available = realCliAvailable("a race's budget with the real CLI");
const STEPS = 30;
const CAP = 0.06;
const REASON = "Arcadia: the agents of this race (fix-title) reached their $0.06 budget. Stop and wait; the user can raise it.";
const echo = (what: string) => ({ tools: [{ name: "Bash", input: { command: `echo ${what}`, description: `Say ${what}` } }] });

describe.skipIf(!available)("a race's budget (real CLI)", () => {
  let rig: Rig;
  let clis: HookedClis;
  let book: BudgetBook;
  let cards: SessionCards;
  let reads: LiveSessionReads;
  const settings: RawBudgetSettings = { perRace: CAP };
  const seen: { agentId: string; input: HookInput; denied?: BudgetDenial; raceUsd?: number; ownUsd?: number }[] = [];
  const sessions: Record<string, string> = {};

  beforeAll(async () => {
    rig = await createRig({
      script: {
        usage: "fromRequestSize",
        conversations: [
          // Later prompts, matched by themselves (before the first prompts' conversations).
          { match: "Try again", matchLatestPrompt: true, steps: [echo("tried-again"), { text: "Tried." }] },
          { match: "Go on", matchLatestPrompt: true, steps: [echo("after-raise"), { text: "Went on." }] },
          { match: "Run the short steps", steps: [echo("short-1"), echo("short-2"), echo("short-3"), { text: "Short steps done." }] },
          { match: "Run the numbered steps", steps: [...Array.from({ length: STEPS }, (_, i) => echo(`step-${i + 1}`)), { text: "All steps done." }] },
        ],
      },
    });
    cards = new SessionCards(() => undefined);
    reads = new LiveSessionReads(cards);
    book = new BudgetBook({ settings: () => settings, state: { load: () => undefined, save: () => undefined }, log: (m) => console.log(m) });
    book.follow(cards);
    const races = new RaceBook({ load: () => undefined, save: async () => undefined });
    const race = startRace({ id: "r1", task: "fix-title", prompt: "p", repo: rig.workspace, base: "main", now: Date.now(), models: [null, null] });
    await races.add(memberStarted(memberStarted(race, "fix-title-1", "member-1"), "fix-title-2", "member-2"));
    book.followGroups(raceBudgetGroups(races));
    const feed: HookEndpoint = ({ agentId, input }) => {
      seen.push({ agentId, input });
      if (sessions[agentId]) reads.touch(agentId, sessions[agentId]);
      return {};
    };
    const hooks = withBudgetGate(feed, {
      verdict: (id) => book.verdict(id),
      maxSubagents: () => book.settings.maxSubagents,
      subagents: book.subagents,
      denied: (id, denial) => {
        const verdict = book.verdict(id);
        const ownUsd = cards.spend(id, localDay(Date.now()))?.session?.usd;
        Object.assign(seen.at(-1)!, { denied: denial, raceUsd: verdict.paused ? verdict.spentUsd : undefined, ownUsd });
      },
      log: (m) => console.log(m),
    });
    clis = await startHookedClis(rig, { hooks });
  });

  afterAll(async () => {
    await reads?.dispose();
    await clis?.dispose();
    await rig?.dispose();
  });

  async function launch(agentId: string) {
    const session = await clis.launch(agentId, { args: ["--allowedTools", "Bash"] });
    sessions[agentId] = session.transcriptPath();
    return session;
  }

  const ran = (what: string) =>
    seen.some((s) => s.input.hook_event_name === "PostToolUse" && JSON.stringify(s.input.tool_input ?? {}).includes(`echo ${what}`));
  const toolResults = (agent: { records(): unknown[] }) =>
    JSON.stringify(agent.records().flatMap((r) => blocks(r as never).filter((b) => b.type === "tool_result")));

  it("the two together reach the cap: each one's next tool call is denied with the race's reason; Raise… on a card lets it go on", async () => {
    const second = await launch("member-2");
    await second.submit("Run the short steps");
    await second.waitForScreen(/Short steps done\./, 120_000);
    await second.waitForIdle();
    expect(["short-1", "short-2", "short-3"].every(ran)).toBe(true);
    expect(seen.some((s) => s.denied)).toBe(false);

    const first = await launch("member-1");
    await first.submit("Run the numbered steps");
    await first.waitForScreen(/All steps done\./, 120_000);
    await first.waitForIdle();
    const denial = seen.find((s) => s.agentId === "member-1" && s.denied?.kind === "paused");
    expect(denial).toBeDefined();
    // The race's sum held it, not its own spend: alone it had spent less than the cap.
    expect(denial!.raceUsd).toBeGreaterThanOrEqual(CAP);
    expect(denial!.ownUsd).toBeLessThan(CAP);
    expect(ran(`step-${STEPS}`)).toBe(false);
    await pollUntil(() => toolResults(first).includes(REASON), "member 1's transcript to hold the race's reason", 10_000);
    console.log(
      `a race's budget with the real CLI: capped at $${CAP} together; member 1 denied at ${JSON.stringify(denial!.input.tool_input)} ` +
        `with the race at $${denial!.raceUsd?.toFixed(4)}, its own spend $${denial!.ownUsd?.toFixed(4)}`,
    );

    // The member that spent first is paused too: its next call is denied, with the race's words on its card.
    expect(book.budgetView("member-2")?.paused).toMatch(/^Paused at the race's budget — \$0\.\d\d of \$0\.06$/);
    await second.submit("Try again");
    await second.waitForScreen(/Tried\./, 60_000);
    await second.waitForIdle();
    expect(seen.filter((s) => s.agentId === "member-2" && s.denied?.kind === "paused")).toHaveLength(1);
    expect(ran("tried-again")).toBe(false);
    // The model read the race's reason (the denied call's result; the transcript may be written just after the screen).
    await pollUntil(() => toolResults(second).includes(REASON), "member 2's transcript to hold the race's reason", 10_000);

    // Raise… on member 2's card raises the race's cap: its next call passes.
    expect(book.raise("member-2", 1)).toBeUndefined();
    expect(book.verdict("member-1")).toEqual({ paused: false });
    await second.submit("Go on");
    await second.waitForScreen(/Went on\./, 60_000);
    await second.waitForIdle();
    expect(ran("after-raise")).toBe(true);
    await first.dispose();
    await second.dispose();
  });
});

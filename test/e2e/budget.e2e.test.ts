/// <reference lib="dom" />
/**
 * A budget that holds, in a real VS Code (code-server + Chromium) with the real Claude Code CLI and
 * the scripted model reporting realistic token counts (`usage: "fromRequestSize"`): an agent capped
 * at $0.05 (arcadia.budget.perAgent) works through numbered shell steps until its spend crosses
 * the cap; its next tool call is denied — the step never runs on disk, the terminal says the calls
 * were not run and the model reads Arcadia's reason, the line and the card say "Paused at budget — $… of $0.05" with Raise… and Stop, and
 * the overshoot is printed. The pause holds across a window reload. Raise… (its input box, as a
 * person answers it) lets the agent go on at the user's next prompt. A runaway reply starting 20
 * sub-agents gets 5 (arcadia.budget.maxSubagents), and the card says why. The day's cap, set from
 * the palette, pauses a second agent (and the first) at today's total, across a reload.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script, Step } from "../rig/script.js";
import { e2eAvailable, pollUntil, runCommand, terminalText, waitForWorkbench, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";

const available = e2eAvailable("an agent paused at its budget, across a reload, and raised (e2e)");

const CAP = 0.05;
const STEPS = 30;
const STEPS_FILE = "steps.txt";
const PROMPT = "Run the numbered steps";
/** The agent's terminal lives in the panel (code-server revives it after a reload there, not in the editor area). */
const TERMINAL = ".part.panel";
const PAUSED = /^Paused at budget — \$0\.\d\d of \$0\.05$/;

/** A runaway: one reply starting this many sub-agents at once (arcadia.budget.maxSubagents is 5 by default). */
const HELPERS = 20;
const helper = (i: number) => ({ name: "Agent", input: { description: `Helper ${i}`, prompt: `HELPER-TASK ${i}`, subagent_type: "general-purpose" } });
const step = (what: string): Step => ({ tools: [{ name: "Bash", input: { command: `echo ${what} >> ${STEPS_FILE}`, description: `Note ${what}` } }] });
const script: Script = {
  usage: "fromRequestSize",
  conversations: [
    // Before the first prompt's conversation: a later prompt of it is matched by itself.
    { match: "Go on", matchLatestPrompt: true, steps: [step("after-raise"), { text: "Went on." }] },
    { match: "HELPER-TASK", steps: [{ text: "Helped.", delayMs: 6000 }] },
    { match: "Spawn the helpers", matchLatestPrompt: true, steps: [{ tools: Array.from({ length: HELPERS }, (_, i) => helper(i + 1)) }, { text: "Spawned." }] },
    { match: PROMPT, steps: [...Array.from({ length: STEPS }, (_, i) => step(`step-${i + 1}`)), { text: "All steps done." }] },
  ],
  fallbackText: "OK.",
};

describe.skipIf(!available)("a budget that holds (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, line, details, showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page, TERMINAL);
  /** Every transcript of the window's HOME, as one text. */
  const transcripts = () => {
    const projects = join(win.home, ".claude", "projects");
    return readdirSync(projects, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(projects, f), "utf8"))
      .join("\n");
  };
  const stepsOnDisk = () =>
    existsSync(join(win.workspace, STEPS_FILE)) ? readFileSync(join(win.workspace, STEPS_FILE), "utf8").split("\n").filter(Boolean) : [];

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "budget",
      script,
      // The agent starts on its prompt (nothing typed while it starts); its shell commands need no
      // prompt, so only the budget stops it.
      settings: {
        "terminal.integrated.enablePersistentSessions": true,
        "arcadia.agentSandbox": "off",
        "arcadia.budget.perAgent": CAP,
        "arcadia.extraArgs": [PROMPT, "--allowedTools", "Bash,Agent"],
      },
      // Sub-agents in the foreground: the turn lasts while they run (the brake's note shows meanwhile).
      cliEnv: { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" },
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-budget-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      await page
        .locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      console.log(`terminal at the failure:\n${await terminalText(page, TERMINAL).catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (budget): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  it("capped at $0.05: paused at its next tool call after crossing, on its line, its card and in its terminal; the overshoot printed", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    // Its terminal comes to the front of the panel; then the panel is brought back.
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 30_000 });
    await showPanel();
    const paused = line("Agent #1").locator('[data-testid="budget-paused"]');
    await paused.waitFor({ timeout: 180_000 });
    expect((await paused.locator(".budget-paused-text").textContent())?.trim()).toMatch(PAUSED);
    await expect(paused.locator('[data-testid="budget-raise"]').count()).resolves.toBe(1);
    await expect(paused.locator('[data-testid="budget-stop"]').count()).resolves.toBe(1);
    await expect((await details("Agent #1")).locator('[data-testid="budget-paused"]').textContent()).resolves.toContain("Paused at budget");

    // The model went on asking; every call from the denied one on was refused: the turn ends with steps left undone on disk.
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await pollUntil(async () => (await terminalText(page, TERMINAL)).includes("All steps done."), "the turn's end in the terminal", 120_000);
    // The overshoot: what it had spent when its first call was denied (the log says it; the card's
    // figure goes on growing, as each denied call is one more request to the model).
    const first = /budget: denied a call of Agent #1 \(paused: \$(\d+\.\d+) spent of \$0\.05\)/.exec(vs.extensionLog());
    expect(first, "the first denial in Arcadia's log").not.toBeNull();
    const spentAtDenial = Number(first![1]);
    figures.spentAtFirstDenialUsd = spentAtDenial;
    figures.overshootUsd = Number((spentAtDenial - CAP).toFixed(4));
    expect(spentAtDenial).toBeGreaterThanOrEqual(CAP);
    const ran = stepsOnDisk();
    figures.stepsRun = `${ran.length} of ${STEPS}`;
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(STEPS);
    expect(ran).toEqual(Array.from({ length: ran.length }, (_, i) => `step-${i + 1}`));
    // The terminal says the calls were not run (the CLI folds them: "23 actions not run · permission
    // denied"); the model read Arcadia's reason (each denied call's result in the transcript).
    expect(await terminalText(page, TERMINAL)).toMatch(/\d+ actions? not run/);
    expect(transcripts()).toContain("Arcadia: this agent reached its $0.05 budget. Stop and wait; the user can raise it.");
    await vs.screenshot("budget-1-paused");
  }, 300_000);

  it("the pause holds across a window reload; Raise… lets it go on at the user's next prompt", async () => {
    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    const paused = line("Agent #1").locator('[data-testid="budget-paused"]');
    await paused.waitFor({ timeout: 30_000 });
    expect((await paused.locator(".budget-paused-text").textContent())?.trim()).toMatch(PAUSED);
    await vs.screenshot("budget-2-paused-after-reload");

    // Raise…: its input box offers a new cap; the user accepts it. Asked for again if something took
    // the box away before it was filled: a reload's renaming of the revived terminal (its name came
    // back as "bash") shows it for a moment, which moves the focus.
    const box = page.locator(".quick-input-widget input");
    for (let attempt = 1; ; attempt++) {
      await showPanel();
      await paused.locator('[data-testid="budget-raise"]').click();
      await box.waitFor({ timeout: 10_000 });
      const filled = await box
        .fill("1", { timeout: 5_000 })
        .then(() => true)
        .catch((err: unknown) => (attempt < 3 ? false : Promise.reject(err)));
      if (filled) break;
      await page.keyboard.press("Escape");
    }
    await box.press("Enter");
    await pollUntil(async () => (await paused.count()) === 0, "the pause gone from the line", 10_000);
    await expect((await details("Agent #1")).locator('[data-testid="budget-line"]').textContent()).resolves.toMatch(/of \$1\.00/);

    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await waitForClaudePrompt(TERMINAL);
    await typeInTerminal("Go on", TERMINAL);
    await pollUntil(async () => (await terminalText(page, TERMINAL)).includes("Went on."), "the turn after the raise", 60_000);
    expect(stepsOnDisk()).toContain("after-raise");
    await vs.screenshot("budget-3-raised");
  }, 180_000);

  it("a runaway starting 20 sub-agents is stopped at the limit, and the card says why", async () => {
    // At the CLI's prompt (the last turn over: nothing of it still to print), as a person types.
    await waitForClaudePrompt(TERMINAL);
    await typeInTerminal("Spawn the helpers", TERMINAL);
    await pollUntil(async () => (await terminalText(page, TERMINAL)).includes("Helper 1"), "the runaway's sub-agents in the terminal", 60_000);
    await showPanel();
    const card = await details("Agent #1");
    await pollUntil(async () => (await card.locator('[data-testid="budget-brake"]').count()) > 0, "the brake's note on the card", 60_000, 100);
    expect(await card.locator('[data-testid="budget-brake"]').textContent()).toContain("at most 5 run at once (arcadia.budget.maxSubagents)");
    // While the five run, the card never shows more running: a denied call's row ends at once (it
    // never runs, and no hook of the CLI's says so).
    const running = card.locator('[data-testid="tool-row"][data-outcome="running"]', { hasText: "Helper" });
    let mostRunning = 0;
    for (let look = 0; look < 10; look++, await page.waitForTimeout(100)) mostRunning = Math.max(mostRunning, await running.count());
    figures.runawayMostRowsRunning = mostRunning;
    expect(mostRunning).toBeLessThanOrEqual(5);
    await vs.screenshot("budget-4-runaway");
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await pollUntil(async () => (await terminalText(page, TERMINAL)).includes("Spawned."), "the runaway's turn over", 120_000);
    const denials = (vs.extensionLog().match(/denied a call of Agent #1 \(subagents: Agent over 5\)/g) ?? []).length;
    figures.runawaySubagents = `${HELPERS - denials} of ${HELPERS} started, ${denials} denied`;
    expect(denials).toBe(HELPERS - 5);
    await vs.screenshot("budget-5-runaway-over");
  }, 300_000);

  it("the day's cap, set from the palette, pauses a second agent too; both stay paused after a reload", async () => {
    await showPanel();
    // Today's spend so far is Agent #1's: the day's cap is set a few cents above it.
    const spentText = await (await details("Agent #1")).locator('[data-testid="budget-line"]').textContent();
    const spent = Number(/\$(\d+\.\d\d) of \$1\.00/.exec(spentText ?? "")?.[1]);
    expect(spent, `Agent #1's spend on its card: ${spentText}`).toBeGreaterThan(0);
    const dayCap = (spent + 0.03).toFixed(2);
    await runCommand(page, "Arcadia: Cap All Agents' Spending per Day…", 60_000, "Cap all agents' spending per day");
    const box = page.locator(".quick-input-widget input");
    await box.fill(dayCap);
    await box.press("Enter");
    // Written to the user's settings through VS Code, and seen by the extension at once.
    await vs.waitForExtensionLog(new RegExp(`setting arcadia\\.budget\\.perDay is now ${String(Number(dayCap)).replace(".", "\\.")}\\b`), {
      timeoutMs: 10_000,
    });

    // A second agent starts on the numbered steps: it crosses the day's cap before its own $0.05.
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 30_000 });
    await showPanel();
    const dayPaused = new RegExp(`^Paused at budget — \\$0\\.\\d\\d of today's \\$${dayCap.replace(".", "\\.")}$`);
    // Agent #2's own $0.05 can be passed later too (each call denied is one more request to the
    // model); then its line names that cap. What stopped it first is the day's cap: its first denial.
    const agent2Paused = new RegExp(`^Paused at budget — \\$0\\.\\d\\d of (today's \\$${dayCap.replace(".", "\\.")}|\\$0\\.05)$`);
    const pausedText = (name: string) => line(name).locator('[data-testid="budget-paused"] .budget-paused-text');
    await pausedText("Agent #2").waitFor({ timeout: 180_000 });
    expect((await pausedText("Agent #2").textContent())?.trim(), "Agent #2's line").toMatch(agent2Paused);
    const firstDenial = /budget: denied a call of Agent #2 \(paused: \$(\d+\.\d+) spent of \$(\d+\.\d\d)\)/.exec(vs.extensionLog());
    expect(firstDenial?.[2], "the cap Agent #2's first denial names").toBe(dayCap);
    figures.dayCapUsd = Number(dayCap);
    figures.daySpentAtAgent2FirstDenialUsd = Number(firstDenial?.[1]);
    // The first agent, idle, is held by the same cap: its line says so too.
    await pausedText("Agent #1").waitFor({ timeout: 30_000 });
    expect((await pausedText("Agent #1").textContent())?.trim(), "Agent #1's line").toMatch(dayPaused);
    await vs.screenshot("budget-6-day-cap");

    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    // Still paused, both, with the same words.
    await pausedText("Agent #1").waitFor({ timeout: 30_000 });
    expect((await pausedText("Agent #1").textContent())?.trim(), "Agent #1's line after the reload").toMatch(dayPaused);
    await pausedText("Agent #2").waitFor({ timeout: 30_000 });
    expect((await pausedText("Agent #2").textContent())?.trim(), "Agent #2's line after the reload").toMatch(agent2Paused);
    await vs.screenshot("budget-7-day-cap-after-reload");
  }, 300_000);
});

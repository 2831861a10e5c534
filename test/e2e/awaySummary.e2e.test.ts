/// <reference lib="dom" />
/**
 * The card never contradicts the terminal, in a real VS Code (code-server + Chromium) with the real
 * Claude Code CLI and the scripted model, in one loopback-only namespace:
 * - a "No" at Claude's permission prompt leaves a row that reads "Denied: touch …" (never
 *   "Denied: Running: …"), and the same after a window reload;
 * - with the terminal out of focus, the CLI's away summary asks the scripted model for a recap 30 s
 *   after the last turn (its delay is a cached feature flag, brought forward as in the rig's
 *   away-summary recording); the model answers with two tool calls, which the CLI refuses: the idle
 *   card shows no row of them, running or not, then or later, and the status bar counts no one working.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { awaySummaryAfter } from "../rig/observe.js";
import type { Script } from "../rig/script.js";
import { AWAY_SUMMARY_PROMPT } from "../rig/truthScenarios.js";
import { e2eAvailable, pollUntil, terminalText, waitForWorkbench, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";

const available = e2eAvailable("an idle card after the away summary, and a denied row across a reload (e2e)");

const DENIED_FILE = "e2e-away-denied.txt";
const AWAY_DELAY_MS = 30_000;
/** The agent's terminal lives in the panel (code-server revives it after a reload there, not in the editor area). */
const TERMINAL = ".part.panel";

const script = (workspace: string): Script => ({
  conversations: [
    {
      // One conversation (the first prompt), its replies in order across the three prompts.
      match: "Touch the denied file",
      steps: [
        { tools: [{ name: "Bash", input: { command: `touch ${DENIED_FILE}`, description: "Create a file" } }] },
        { text: "Second answer." },
        { text: "Third answer." },
      ],
    },
  ],
  sideQueries: [
    {
      match: AWAY_SUMMARY_PROMPT,
      step: {
        text: "Recap: a file was denied.",
        tools: [
          { name: "Read", input: { file_path: join(workspace, "README.md") } },
          { name: "Bash", input: { command: "ls -la", description: "List files" } },
        ],
      },
    },
  ],
  fallbackText: "OK.",
});

describe.skipIf(!available)("the card never contradicts the terminal: denied across a reload, the away summary (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  let home: string;
  const { panel, details, prompts, showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page, ".part.panel");
  const statusBarText = () => page.locator('.statusbar-item:has-text("working ·")').first().textContent();

  /** Every record of every transcript under HOME with this system subtype. */
  function systemRecords(subtype: string): number {
    const projects = join(home, ".claude", "projects");
    let n = 0;
    for (const folder of existsSync(projects) ? readdirSync(projects) : []) {
      for (const name of readdirSync(join(projects, folder)).filter((f) => f.endsWith(".jsonl"))) {
        n += readFileSync(join(projects, folder, name), "utf8")
          .split("\n")
          .filter((l) => l.includes(`"subtype":"${subtype}"`)).length;
      }
    }
    return n;
  }

  /** Types at the agent's prompt: its terminal brought to the front of the panel first. */
  async function submit(text: string): Promise<void> {
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await waitForClaudePrompt(TERMINAL);
    await typeInTerminal(text, TERMINAL);
  }

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "away-summary",
      script,
      settings: { "terminal.integrated.enablePersistentSessions": true },
      prepareHome: (dir) => awaySummaryAfter({ home: dir }, AWAY_DELAY_MS),
      cliEnv: { CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: "1" },
    });
    ({ vs, page, home } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-away-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, TERMINAL).catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    await win?.close();
  });

  it("a 'No' at Claude's prompt reads 'Denied: touch …', live and after a window reload", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await submit("Touch the denied file");
    await showPanel();
    const card = await details("Agent #1");
    // While the prompt is up the row waits for you: it does not run, and has no clock.
    const waiting = card.locator('[data-testid="tool-row"]', { hasText: DENIED_FILE });
    await pollUntil(async () => (await waiting.getAttribute("data-outcome")) === "waiting", "the row waiting for you", 30_000);
    await expect(waiting.textContent()).resolves.toContain(`Waiting for you: touch ${DENIED_FILE}`);
    await expect(waiting.locator('[data-testid="tool-elapsed"]').count()).resolves.toBe(0);
    await prompts("Agent #1", "permission").locator('[data-testid="prompt-deny"]').click();
    const row = card.locator('[data-testid="tool-row"]', { hasText: DENIED_FILE });
    await pollUntil(async () => (await row.getAttribute("data-outcome")) === "denied", "the row denied", 20_000);
    const live = (await row.locator(".tool-label").textContent())?.trim();
    expect(live).toBe(`Denied: touch ${DENIED_FILE}`);
    await vs.screenshot("away-1-denied-live");

    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    const restored = (await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: DENIED_FILE });
    await pollUntil(async () => (await restored.getAttribute("data-outcome")) === "denied", "the restored row denied", 30_000);
    expect((await restored.locator(".tool-label").textContent())?.trim()).toBe(live);
    await vs.screenshot("away-2-denied-after-reload");
  });

  it("after the away summary's recap request answered with tool calls, the idle card shows none of them, running or not", async () => {
    await submit("Second prompt");
    await submit("Third prompt");
    await waitForClaudePrompt(TERMINAL);
    // Away from the terminal (the panel shows Arcadia: the terminal reports the focus leaving): the recap comes 30 s after the turn.
    await showPanel();
    const card = await details("Agent #1");
    await pollUntil(() => systemRecords("away_summary") > 0, "the CLI's away_summary record", AWAY_DELAY_MS + 60_000, 500);
    // A few seconds more: whatever its PreToolUse hooks announced has had time to arrive.
    await page.waitForTimeout(5_000);
    expect(await card.getAttribute("data-status")).toBe("waiting");
    await expect(card.locator('[data-testid="tool-row"][data-outcome="running"]').count()).resolves.toBe(0);
    const rows = await card.locator('[data-testid="tool-row"]').allTextContents();
    expect(rows.filter((r: string) => r.includes("README.md") || r.includes("ls -la"))).toEqual([]);
    await pollUntil(async () => (await statusBarText())?.includes("0 working · 0 need you") ?? false, 'the status bar "0 working · 0 need you"', 10_000);
    await vs.screenshot("away-3-idle-after-recap");
  });
});

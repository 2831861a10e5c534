/// <reference lib="dom" />
/**
 * The panel is instant and never contradicts the terminal, in a real VS Code (code-server +
 * Chromium) with the real Claude Code CLI and the scripted model, in one loopback-only namespace:
 * - how soon a tool's row shows after the tool starts, with the hooks and with the transcript
 *   alone (the setting `arcadia.liveToolsFromHooks` off: what cards showed before hooks), printed;
 * - an Arcadia approval and Claude's permission prompt each make the card "needs you" and the
 *   status bar "0 working · 1 needs you"; a row that waited shows its wait apart; a denied tool
 *   reads "Denied";
 * - a prompt on a card below the fold scrolls into view;
 * - `/compact` shows "Compacting…" until it ends.
 * Its own window and workspace; the scenarios run in order on it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script, Step } from "../rig/script.js";
import { e2eAvailable, pollUntil, runCommand, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { panelContentFrame, setWorkspaceSetting } from "./panelFrame";

const available = e2eAvailable("the panel is instant and never contradicts the terminal (e2e)");

/** Tools per prompt and prompts per agent in the latency runs: 3 × 7 = 21 tools each. */
const TOOLS_PER_PROMPT = 7;
const PROMPTS = ["Latency run one", "Latency run two", "Latency run three"];
/** The command prints when it started (ms since the epoch), then takes a second. */
const timedCommand = (n: number) => `date +%s%3N && sleep 1.${String(n).padStart(2, "0")}`;
/**
 * Like the real API, the reply's end (message_delta) comes a little after its tool_use block:
 * the CLI then writes the reply's records only once the tool has finished (docs/claude-code-cli.md, Transcripts).
 */
const STREAM_GAP_MS = 150;
const latencySteps: Step[] = [
  ...Array.from({ length: TOOLS_PER_PROMPT }, (_, i): Step => ({
    tools: [{ name: "Bash", input: { command: timedCommand(i + 1), description: `Timed step ${i + 1}` } }],
    blockDelayMs: STREAM_GAP_MS,
  })),
  { text: "Timed steps done." },
];
const COMPACT_SUMMARY_DELAY_MS = 4000;
const DENIED_FILE = "e2e-denied.txt";
/** Agents' terminals live in the editor area here (openAgent). */
const EDITOR = ".part.editor";

const script: Script = {
  conversations: [
    ...PROMPTS.map((match) => ({ match, steps: latencySteps, perPrompt: true })),
    {
      match: "Run the approved command",
      steps: [{ tools: [{ name: "mcp__arcadia__execute_command", input: { command: "echo approved-run" } }] }, { text: "Ran it." }],
    },
    {
      match: "Touch the denied file",
      steps: [{ tools: [{ name: "Bash", input: { command: `touch ${DENIED_FILE}`, description: "Create a file" } }] }, { text: "Not reached." }],
    },
  ],
  // The summary request of /compact is slow, so "Compacting…" can be seen.
  slowReplies: [{ match: "Your task is to create a detailed summary", delayMs: COMPACT_SUMMARY_DELAY_MS }],
  fallbackText: "OK.",
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe.skipIf(!available)("the panel is instant and never contradicts the terminal (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let workspace: string;
  let home: string;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, cards, showPanel, waitForClaudePrompt, typeInTerminal, line, details, prompts } = agentPanel(() => page, ".part.panel");
  const statusOf = (name: string) => line(name).getAttribute("data-status");
  const statusBarText = () =>
    page
      .locator('.statusbar-item[id="arcadia-dev.arcadia.arcadia.status"], #arcadia-dev\\.arcadia\\.arcadia\\.status, .statusbar-item:has-text("working ·")')
      .first()
      .textContent();

  /** From inside the panel: the first moment (Date.now()) each tool row, by its id, was in the page. */
  async function recordRowArrivals(): Promise<Frame> {
    const frame = await panelContentFrame(page);
    await frame.evaluate(() => {
      const w = window as unknown as { __rows: Record<string, number> };
      w.__rows = {};
      const check = () => {
        for (const row of Array.from(document.querySelectorAll('[data-testid="tool-row"][data-tool-id]'))) {
          const id = row.getAttribute("data-tool-id")!;
          w.__rows[id] ??= Date.now();
        }
      };
      check();
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    return frame;
  }

  const rowArrivals = (frame: Frame) => frame.evaluate(() => (window as unknown as { __rows: Record<string, number> }).__rows);

  /** Every Bash call of every transcript under HOME: its id → when its command started (its first output line). */
  function commandStarts(): Map<string, number> {
    const starts = new Map<string, number>();
    const projects = join(home, ".claude", "projects");
    for (const folder of existsSync(projects) ? readdirSync(projects) : []) {
      for (const name of readdirSync(join(projects, folder)).filter((n) => n.endsWith(".jsonl"))) {
        for (const line of readFileSync(join(projects, folder, name), "utf8").split("\n")) {
          if (!line.includes('"tool_result"')) continue;
          try {
            const record = JSON.parse(line) as { message?: { content?: unknown } };
            for (const block of Array.isArray(record.message?.content) ? (record.message!.content as Record<string, unknown>[]) : []) {
              if (block.type !== "tool_result") continue;
              const text = typeof block.content === "string" ? block.content : JSON.stringify(block.content);
              const first = /(\d{13})/.exec(text);
              if (first) starts.set(String(block.tool_use_id), Number(first[1]));
            }
          } catch {
            // A line being written: not a result yet.
          }
        }
      }
    }
    return starts;
  }

  /**
   * A new agent, its terminal moved into the editor area: the panel and the terminal are seen side
   * by side (the panel's tabs show one view at a time, and a hidden webview loses its page).
   */
  async function openAgent(name: string): Promise<void> {
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await waitForClaudePrompt();
    await runCommand(page, "Terminal: Move Terminal into Editor Area");
    await page.locator(".part.editor .tab", { hasText: name }).waitFor({ timeout: 10_000 });
    await waitForClaudePrompt(EDITOR);
    await showPanel();
    await line(name).waitFor({ timeout: 20_000 });
  }

  /** Types a prompt into the agent's terminal (the active editor), keeping the panel in view. */
  async function submit(text: string): Promise<void> {
    await waitForClaudePrompt(EDITOR);
    await typeInTerminal(text, EDITOR);
    if (
      !(await panel()
        .locator('[data-testid="open-claude"]')
        .isVisible()
        .catch(() => false))
    )
      await showPanel();
  }

  /** Runs the latency prompts on a new agent; returns each tool's row arrival minus its command's start (ms). */
  async function measureLatency(name: string): Promise<number[]> {
    await openAgent(name);
    const frame = await recordRowArrivals();
    const seenBefore = new Set(Object.keys(await rowArrivals(frame)));
    const newRows = async () => Object.keys(await rowArrivals(frame)).filter((id) => !seenBefore.has(id)).length;
    for (const [i, text] of PROMPTS.entries()) {
      await submit(text);
      await pollUntil(
        async () => (await newRows()) >= TOOLS_PER_PROMPT * (i + 1) && (await statusOf(name)) === "waiting",
        `${name} done with "${text}"`,
        60_000,
      );
    }
    const arrivals = await rowArrivals(frame);
    // Back into the panel: the next agent's terminal is then the one terminal in the editor area.
    await page.locator(`${EDITOR} .terminal-wrapper.active .xterm`).first().click();
    await runCommand(page, "Terminal: Move Terminal into Panel");
    await pollUntil(async () => (await page.locator(`${EDITOR} .terminal-wrapper`).count()) === 0, "no terminal left in the editor area", 10_000);
    await showPanel();
    const starts = commandStarts();
    const latencies: number[] = [];
    for (const [id, seenAt] of Object.entries(arrivals)) {
      const startedAt = starts.get(id);
      if (!seenBefore.has(id) && startedAt !== undefined) latencies.push(seenAt - startedAt);
    }
    return latencies;
  }

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "live-truth",
      script,
      settings: {
        // The timed commands run unasked; `touch` still asks (the permission scenario).
        "arcadia.extraArgs": ["--allowedTools", "Bash(date:*)", "Bash(sleep:*)"],
        // Every execute_command waits for Allow on the card (the approval scenario).
        "arcadia.mcp.commandApproval": "always",
      },
    });
    ({ vs, page, workspace, home } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-live-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, EDITOR).catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (live truth): ${JSON.stringify(figures, null, 1)}`);
    await win?.close();
  });

  it("a tool's row shows within 100 ms (p50) of the tool starting when hooks are on; the transcript alone is printed beside it", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    const withHooks = await measureLatency("Agent #1");
    setWorkspaceSetting(workspace, "arcadia.liveToolsFromHooks", false);
    await vs.waitForExtensionLog(/setting arcadia\.liveToolsFromHooks is now false/, { timeoutMs: 20_000 });
    const transcriptOnly = await measureLatency("Agent #2");
    setWorkspaceSetting(workspace, "arcadia.liveToolsFromHooks", true);
    const line = (values: number[]) => ({ tools: values.length, p50Ms: percentile(values, 50), p99Ms: percentile(values, 99), maxMs: Math.max(...values) });
    figures.rowAfterCommandStartWithHooks = line(withHooks);
    figures.rowAfterCommandStartTranscriptOnly = line(transcriptOnly);
    console.log(
      `tool start → row on the card (ms; negative: the row came before the command's first line)\n` +
        `  with hooks:       p50 ${percentile(withHooks, 50)}, p99 ${percentile(withHooks, 99)} (${withHooks.length} tools)\n` +
        `  transcript only:  p50 ${percentile(transcriptOnly, 50)}, p99 ${percentile(transcriptOnly, 99)} (${transcriptOnly.length} tools; what cards showed before hooks)`,
    );
    expect(withHooks.length).toBeGreaterThanOrEqual(20);
    expect(transcriptOnly.length).toBeGreaterThanOrEqual(20);
    expect(percentile(withHooks, 50)).toBeLessThanOrEqual(100);
    expect(percentile(withHooks, 99)).toBeLessThanOrEqual(300);
  });

  it("an Arcadia approval makes the card need you and the status bar say so; the row shows its wait apart once allowed", async () => {
    await openAgent("Agent #3");
    await submit("Run the approved command");
    const prompt = prompts("Agent #3", "command");
    await prompt.waitFor({ timeout: 30_000 });
    const askedAt = Date.now();
    await pollUntil(async () => (await statusOf("Agent #3")) === "needsYou", "Agent #3 needs you", 10_000);
    await expect((await details("Agent #3")).locator('[data-testid="agent-status"]').textContent()).resolves.toMatch(/needs you/i);
    await pollUntil(async () => (await statusBarText())?.includes("0 working · 1 needs you") ?? false, 'the status bar "0 working · 1 needs you"', 10_000);
    // While it waits, the call offers Cancel alone: nothing runs yet, so nothing to complete.
    await expect((await details("Agent #3")).locator('[data-testid="call-complete"]').count()).resolves.toBe(0);
    await vs.screenshot("live-1-approval-needs-you");
    // The row waits at least 5 s for its answer.
    await page.waitForTimeout(Math.max(0, askedAt + 5_000 - Date.now()));
    await prompt.locator('[data-testid="prompt-allow"]').click();
    const waitedS = (Date.now() - askedAt) / 1000;
    await showPanel();
    const row = (await details("Agent #3")).locator('[data-testid="tool-row"]', { hasText: "approved-run" });
    const shown = (await pollUntil(async () => /waited (\d+)s/.exec((await row.textContent()) ?? ""), "the row saying how long it waited", 20_000))!;
    figures.approvalWaitedSeconds = { measuredHere: Math.round(waitedS * 10) / 10, shownOnTheRow: Number(shown[1]) };
    // What the row says is the wait the user saw, give or take the moment the prompt took to show.
    expect(Number(shown[1])).toBeGreaterThanOrEqual(5);
    expect(Math.abs(Number(shown[1]) - waitedS)).toBeLessThanOrEqual(1.5);
    await pollUntil(async () => (await statusOf("Agent #3")) === "waiting", "Agent #3 idle after its turn", 30_000);
    figures.approvalRowText = await row.textContent();
    await pollUntil(async () => (await statusBarText())?.includes("0 working · 0 need you") ?? false, 'the status bar "0 working · 0 need you"', 10_000);
  });

  it("Claude's permission prompt makes the card need you; Deny from the card leaves a row that reads Denied", async () => {
    await submit("/clear");
    await submit("Touch the denied file");
    const prompt = prompts("Agent #3", "permission");
    await prompt.waitFor({ timeout: 30_000 });
    await pollUntil(async () => (await statusOf("Agent #3")) === "needsYou", "Agent #3 needs you", 10_000);
    await pollUntil(async () => (await statusBarText())?.includes("0 working · 1 needs you") ?? false, 'the status bar "0 working · 1 needs you"', 10_000);
    await prompt.locator('[data-testid="prompt-deny"]').click();
    const row = (await details("Agent #3")).locator('[data-testid="tool-row"]', { hasText: DENIED_FILE });
    await pollUntil(async () => (await row.getAttribute("data-outcome")) === "denied", "the row denied", 20_000);
    await expect(row.textContent()).resolves.toContain("Denied");
    expect(existsSync(join(workspace, DENIED_FILE))).toBe(false);
    await vs.screenshot("live-2-denied");
  });

  it("a prompt of the third agent is on screen with its buttons at once, in a short window: nothing to scroll to", async () => {
    await page.setViewportSize({ width: 900, height: 700 });
    await showPanel();
    const frame = await panelContentFrame(page);
    await submit("/clear");
    await submit("Run the approved command");
    await prompts("Agent #3").waitFor({ timeout: 30_000 });
    // Every button of the prompt inside the page's visible height, without any scrolling.
    const buttons = await frame.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid="agent-prompts"] vscode-button')).map((b) => {
        const box = b.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, height: window.innerHeight, scrolled: document.scrollingElement?.scrollTop ?? 0 };
      }),
    );
    expect(buttons.length).toBeGreaterThanOrEqual(2);
    for (const b of buttons) expect(b.top >= 0 && b.bottom <= b.height, JSON.stringify(b)).toBe(true);
    await vs.screenshot("live-3-prompt-in-sight");
    await prompts("Agent #3").locator('[data-testid="prompt-deny"]').click();
    await pollUntil(async () => (await statusOf("Agent #3")) !== "needsYou", "Agent #3 past its prompt", 20_000);
  });

  it("/compact shows Compacting… on the card until it ends", async () => {
    await submit("/compact");
    await pollUntil(async () => (await statusOf("Agent #3")) === "compacting", "Agent #3 compacting", 10_000);
    await expect((await details("Agent #3")).locator('[data-testid="agent-status"]').textContent()).resolves.toContain("Compacting");
    await vs.screenshot("live-4-compacting");
    const since = Date.now();
    await pollUntil(async () => (await statusOf("Agent #3")) !== "compacting", "compaction to end", COMPACT_SUMMARY_DELAY_MS + 20_000);
    figures.compactingShownMs = Date.now() - since;
    await expect(cards().count()).resolves.toBe(3);
  });
});

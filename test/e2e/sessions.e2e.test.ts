/// <reference lib="dom" />
/**
 * Sessions, in a real VS Code (code-server + Chromium) with the real Claude Code CLI and the
 * scripted model, in one loopback-only namespace. Two sessions are finished before the window
 * opens (`claude -p` in the workspace). The Sessions view lists both by their first prompts;
 * filtering finds one; opening it shows its prompt and tool rows in a reader tab; Resume starts
 * `claude --resume` in a new terminal with a card, and the model receives the earlier messages;
 * after two more turns the card shows the two earlier turns collapsed.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";

const available = e2eAvailable("the Sessions view: list, filter, read, resume (e2e)");
const COUNT = "Count the lines of the README";
const HELLO = "Say hello from the second session, then tell what the middleware does when a cookie has expired";
const bash = (command: string, description: string) => ({ name: "Bash", input: { command, description } });

describe.skipIf(!available)("the Sessions view (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page, ".part.panel");

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "sessions",
      settings: { "arcadia.extraArgs": ["--allowedTools", "Bash"] },
      prepareWorkspace: () => undefined,
      script: (): Script => ({
        conversations: [
          { match: COUNT, perPrompt: true, steps: [{ tools: [bash("wc -l README.md", "Count README lines")] }, { text: "The README has 1 line." }] },
          { match: HELLO, steps: [{ text: "Hello from the second session." }] },
        ],
        fallbackText: "OK.",
      }),
    });
    ({ vs, page } = win);
    // Two finished sessions, written by the real CLI before the window opens (asynchronously: the
    // scripted model answers from this very process).
    const run = async (prompt: string) =>
      (
        await promisify(execFile)(win.claude, ["-p", prompt, "--allowedTools", "Bash"], {
          cwd: win.workspace,
          env: { ...process.env, HOME: win.home },
          encoding: "utf8",
          timeout: 90_000,
        })
      ).stdout;
    expect(await run(COUNT)).toContain("The README has 1 line.");
    expect(await run(HELLO)).toContain("Hello from the second session.");
  }, 240_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-sessions-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (sessions): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  const rowTitles = async (frame: Frame) => frame.locator('[data-testid="session-open"]').allTextContents();

  it("lists the finished sessions by their first prompts, filters them, reads one, resumes it with a card, and shows its earlier turns", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    const agents = await arcadiaFrame(page, "agents");
    const clickedAt = Date.now();
    await agents.locator('[data-testid="open-sessions"]').click();
    const sessions = await arcadiaFrame(page, "sessions");
    await pollUntil(async () => (await rowTitles(sessions)).length === 2, "two sessions listed", 20_000);
    figures.sessionsListedAfterClickMs = Date.now() - clickedAt;
    // From the page's own clock: the list in place, counted from the moment the view's page started.
    figures.sessionsListedAfterPageStartMs = await sessions.evaluate(() =>
      Math.round(performance.getEntriesByName("arcadia:sessions:listed")[0]?.startTime ?? -1),
    );
    // Newest first, each title whole (the editor tab has the width; a long one wraps, never cut).
    expect(await rowTitles(sessions)).toEqual([HELLO, COUNT]);
    const cut = await sessions.evaluate(
      () =>
        Array.from(document.querySelectorAll('[data-testid="session-open"]')).filter(
          (t) => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > window.innerWidth,
        ).length,
    );
    expect(cut, "titles cut off").toBe(0);
    // The Turns column, once the session was read whole.
    const turnsOfFirst = () => sessions.locator('[data-testid="session-row"]').first().locator("td").nth(4).textContent();
    await pollUntil(async () => (await turnsOfFirst())?.trim() === "1", "the figures once read whole", 20_000);

    await sessions.locator('[data-testid="sessions-filter"] input').fill("readme");
    await pollUntil(async () => (await rowTitles(sessions)).join() === COUNT, "the filter finding one session", 10_000);

    await sessions.locator('[data-testid="session-open"]').first().click();
    await page.locator(".part.editor .tab", { hasText: "Session: Count the lines" }).waitFor({ timeout: 20_000 });
    const reader = await arcadiaFrame(page, "session");
    await reader.locator('[data-testid="reader-tool"]').first().waitFor({ timeout: 20_000 });
    expect(await reader.locator('[data-testid="reader-prompt"]').first().textContent()).toContain(COUNT);
    expect(await reader.locator('[data-testid="reader-tool"]').first().textContent()).toContain("wc -l README.md");
    expect(await reader.locator('[data-testid="reader-reply"]').first().textContent()).toContain("The README has 1 line.");

    // Resume from the reader: a new terminal running claude --resume, with a card following it.
    const requestsBefore = win.model.requests.length;
    await reader.locator('[data-testid="reader-resume"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 20_000 });
    await waitForClaudePrompt();
    await typeInTerminal("Count them again");
    // The resumed CLI shows the earlier conversation on its screen: the model's log tells the new answers apart.
    const answers = () => win.model.requests.slice(requestsBefore).filter((r) => r.reply === "conv0/step1").length;
    await pollUntil(() => answers() >= 1, "the resumed turn answered", 30_000);
    // The model got the earlier conversation (its first prompt, its tool call and answer) before the new prompt.
    const resumed = win.model.requests.slice(requestsBefore).find((r) => r.reply === "conv0/step0");
    expect(resumed?.body?.firstUserText).toContain(COUNT);
    expect(resumed?.body?.messages).toBeGreaterThan(4);

    await showPanel();
    const panelFrame = await arcadiaFrame(page, "agents");
    const card = panelFrame.locator('[data-testid="agent-card"]', { hasText: "Agent #1" });
    await pollUntil(async () => (await card.getAttribute("data-status")) === "waiting", "the resumed card idle after its turn", 20_000);
    expect(await card.locator('[data-testid="tool-row"]').allTextContents()).toEqual([expect.stringContaining("wc -l README.md")]);

    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await typeInTerminal("And once more");
    await pollUntil(() => answers() >= 2, "the third turn answered", 30_000);
    await showPanel();
    const again = await arcadiaFrame(page, "agents");
    const threeTurns = again.locator('[data-testid="agent-card"]', { hasText: "Agent #1" });
    await pollUntil(async () => (await threeTurns.locator('[data-testid="turn-summary"]').count()) === 2, "two earlier turns on the card", 20_000);
    const lines = await threeTurns.locator(".turn-text").allTextContents();
    expect(lines).toEqual([expect.stringMatching(/^Turn 2 · 1 tool · .*completed$/), expect.stringMatching(/^Turn 1 · 1 tool · .*completed$/)]);
    expect(await threeTurns.locator('[data-testid="agent-usage"]').textContent()).toMatch(/^[\d.]+k? tokens · (~\$[\d.]+|~?< ?\$0\.01)$/);

    // The Sessions view (shown again: the terminal had the panel) says which card follows the session now.
    await again.locator('[data-testid="open-sessions"]').click();
    const shownAgain = await arcadiaFrame(page, "sessions");
    await pollUntil(
      async () => (await shownAgain.locator('[data-testid="session-followed"]').allTextContents()).join() === "Open in Agent #1",
      "the row naming the card that follows it",
      20_000,
    );
  });
});

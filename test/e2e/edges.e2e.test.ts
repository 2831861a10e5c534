/// <reference lib="dom" />
/**
 * The edges of "the panel never contradicts the terminal", in a real VS Code (code-server +
 * Chromium) with the real Claude Code CLI and the scripted model, in one loopback-only namespace:
 * - a double-click on "Open Claude Code" gives two agents with different numbers;
 * - renaming a card renames its terminal's tab;
 * - a window reload with two agents (one in the middle of a tool) shows both cards at once, never
 *   the empty panel, and the tool that ended during the reload prints no hook error;
 * - two agents in the shared checkout edit src/app.ts (the guard asks the second; allowed) and leave
 *   it uncommitted: each card's warning ("Agent #1 also edits src/app.ts") is there again, in the
 *   same words, after a window reload (issue 33 item 12);
 * - `arcadia.extraArgs: ["--modle"]` gives "claude exited" with the CLI's own message.
 * Its own window and workspace; the scenarios run in order on it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, terminalText, type VsCode, waitForWorkbench, widthProblems, widthSeen } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame, panelContentFrame } from "./panelFrame";
import { updateUserSetting } from "./codeServer";

const available = e2eAvailable("the edges: launch numbers, names, reload, a claude that exits at once (e2e)");
const EDITOR = ".part.editor";
/** Long enough to still run when the window reloads, short enough to end during the reload. */
const SLOW_COMMAND = "sleep 6 && echo slow-step-done";

/** src/app.ts as committed, and the two agents' edits of it (one line each). */
const APP = {
  comment: "// Prints a greeting for each name.",
  betterComment: "// Prints one greeting per name given on the command line.",
  names: "const names = process.argv.slice(2);",
  nonBlank: 'const names = process.argv.slice(2).filter((name) => name.trim() !== "");',
};
const FIRST_EDIT = "Improve the comment in src/app.ts";
const SECOND_EDIT = "Make src/app.ts skip blank names";
const editApp = (from: string, to: string) => ({ name: "Edit", input: { file_path: "{{cwd}}/src/app.ts", old_string: from, new_string: to } });
const readApp = { name: "Read", input: { file_path: "{{cwd}}/src/app.ts" } };

const script: Script = {
  conversations: [
    // Typed into a conversation that may have had turns before: matched by the latest prompt.
    {
      match: FIRST_EDIT,
      matchLatestPrompt: true,
      steps: [{ tools: [readApp] }, { tools: [editApp(APP.comment, APP.betterComment)] }, { text: "Comment improved." }],
    },
    {
      match: SECOND_EDIT,
      matchLatestPrompt: true,
      steps: [{ tools: [readApp] }, { tools: [editApp(APP.names, APP.nonBlank)] }, { text: "Blank names skipped." }],
    },
    {
      match: "Run the slow step",
      steps: [{ tools: [{ name: "Bash", input: { command: SLOW_COMMAND, description: "Slow step" } }] }, { text: "Slow step finished." }],
    },
  ],
  fallbackText: "OK.",
};

describe.skipIf(!available)("the edges of the live truth (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  let workspace = "";
  const app = () => readFileSync(join(workspace, "src", "app.ts"), "utf8");
  const figures: Record<string, unknown> = {};
  const { panel, cards, showPanel, waitForClaudePrompt, typeInTerminal, line, details, prompts } = agentPanel(() => page, ".part.panel");

  /** Names of the terminals in VS Code's terminal view (its tabs list, or its single tab). */
  async function terminalNames(): Promise<string[]> {
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    return page.locator(".part.panel .single-terminal-tab, .part.panel .tabs-list .monaco-list-row").allTextContents();
  }

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "edges",
      script,
      // A repository with src/app.ts committed: the collision guard warns while an edit of it is uncommitted.
      prepareWorkspace: (folder) => {
        mkdirSync(join(folder, "src"));
        writeFileSync(join(folder, "src", "app.ts"), [APP.comment, APP.names, "for (const name of names) console.log(`Hello, ${name}!`);", ""].join("\n"));
        const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", ...args], { cwd: folder });
        git("init", "-q", "-b", "main");
        git("add", "-A");
        git("commit", "-q", "-m", "Sample");
        workspace = folder;
      },
      settings: {
        // Terminals outlive a window reload, as they do by default (the e2e defaults turn it off).
        "terminal.integrated.enablePersistentSessions": true,
        "arcadia.extraArgs": ["--allowedTools", "Bash(sleep:*)", "Bash(echo:*)", "Edit"],
      },
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-edges-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, EDITOR).catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (edges): ${JSON.stringify(figures, null, 1)}`);
    await win?.close();
  });

  it("a double-click on Open Claude Code gives two agents with different numbers", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').dblclick();
    // A launch shows its terminal (the panel's tab switches to it): back to the cards.
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await waitForClaudePrompt();
    await showPanel();
    await pollUntil(async () => (await cards().count()) === 2, "two cards", 20_000);
    const names = (await cards().locator('[data-testid="line-name"]').allTextContents()).map((n) => n.trim()).sort();
    expect(names).toEqual(["Agent #1", "Agent #2"]);
    await pollUntil(async () => (await terminalNames()).filter((n) => /Agent #[12]/.test(n)).length === 2, "two terminals, #1 and #2", 20_000);
    expect(
      (await terminalNames())
        .filter((n) => /Agent #\d/.test(n))
        .map((n) => /Agent #\d/.exec(n)![0])
        .sort(),
    ).toEqual(["Agent #1", "Agent #2"]);
  });

  it("renaming a card renames its terminal's tab", async () => {
    await showPanel();
    // As a person renames: double-click the name, type over it, Enter.
    // The pencil (a click on the card itself would bring its terminal to the front).
    // By id: while its name is being edited, the card no longer shows "Agent #2" as text.
    const id = await line("Agent #2").getAttribute("data-agent-id");
    await details("Agent #2");
    const byId = panel().locator(`[data-testid="agent-card"][data-agent-id="${id}"]`);
    await byId.hover();
    await byId.locator('[data-testid="rename-agent"]').click();
    const input = byId.locator('[data-testid="rename-input"] input');
    await input.fill("Reviewer");
    await input.press("Enter");
    // The terminal's tab follows (renaming it shows it for a moment: the panel comes back after).
    await pollUntil(async () => (await terminalNames()).some((n) => n.includes("Reviewer")), 'the terminal tab "Reviewer"', 20_000);
    await showPanel();
    await line("Reviewer").waitFor({ timeout: 20_000 });
    // The rename brought the panel back to the front: the cards are still in view.
    await expect(cards().count()).resolves.toBe(2);
  });

  it("a reload with two agents, one mid-tool, shows both cards at once (never the empty panel); the tool that ends meanwhile prints no hook error", async () => {
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await page.locator(".part.panel .tabs-list .monaco-list-row", { hasText: "Agent #1" }).click();
    await waitForClaudePrompt(".part.panel");
    await typeInTerminal("Run the slow step", ".part.panel");
    await showPanel();
    await (await details("Agent #1")).locator('[data-testid="tool-row"][data-outcome="running"]', { hasText: "sleep 6" }).waitFor({ timeout: 20_000 });

    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    const frame = await panelContentFrame(page, 30_000);
    const polledFrom = Date.now();
    let emptySeen = false;
    /** When both cards were first in the panel's page, in ms since that page began to load. */
    let bothAt: number | undefined;
    /** The panel's first paint (when it became visible, not blank), same clock. */
    let firstPaint: number | undefined;
    /** The names on the lines when both were first there. */
    let namesWhenBoth: string[] = [];
    while (Date.now() - polledFrom < 8_000) {
      const seen = await frame
        .evaluate(() => ({
          empty: document.querySelector('[data-testid="empty-state"]') !== null,
          cards: document.querySelectorAll('[data-testid="agent-line"]').length,
          names: Array.from(document.querySelectorAll('[data-testid="line-name"]'), (n) => n.textContent?.trim() ?? ""),
          sincePageStart: performance.now(),
          firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
          // The panel marks when it first held two cards (App.tsx), so a late look cannot skew it.
          bothMarked: performance.getEntriesByName("arcadia:cards:2")[0]?.startTime,
        }))
        .catch(() => ({ empty: false, cards: 0, names: [] as string[], sincePageStart: 0, firstPaint: undefined, bothMarked: undefined }));
      emptySeen ||= seen.empty;
      firstPaint ??= seen.firstPaint;
      if (seen.cards === 2 && bothAt === undefined) {
        bothAt = seen.bothMarked ?? seen.sincePageStart;
        namesWhenBoth = seen.names;
      }
      if (bothAt !== undefined && firstPaint !== undefined && Date.now() - polledFrom > 1_500) break;
      await page.waitForTimeout(20);
    }
    figures.panelPageStartToBothCardsMs = bothAt === undefined ? "never" : Math.round(bothAt);
    figures.panelFirstPaintMs = firstPaint === undefined ? "unknown" : Math.round(firstPaint);
    expect(emptySeen, "the panel showed its empty state while agents exist").toBe(false);
    expect(bothAt, "both cards within 8 s").toBeDefined();
    expect(firstPaint, "the panel's first paint").toBeDefined();
    // From the moment the panel shows anything (its first paint), both cards within 1 s: with the
    // cards embedded in the page they are in that very paint.
    figures.panelFirstPaintToBothCardsMs = Math.max(0, Math.round(bothAt! - firstPaint!));
    expect(bothAt! - firstPaint!).toBeLessThanOrEqual(1_000);
    // Each with its name: the rename made before the reload is kept. (Read in the page itself: the
    // renames of the revived terminals show the terminals for a moment.)
    expect(namesWhenBoth).toEqual(["Agent #1", "Reviewer"]);

    // The slow step ended (during or after the reload): the reconnecting card already says so (it
    // follows the transcript's tail), and the terminal never printed a hook error for it.
    await pollUntil(async () => (await line("Agent #1").getAttribute("data-status")) === "waiting", "Agent #1 idle after the slow step", 30_000);
    // VS Code brings the terminals back when their view shows: both, with their names.
    await pollUntil(
      async () => {
        const names = await terminalNames();
        return names.some((n) => n.includes("Agent #1")) && names.some((n) => n.includes("Reviewer"));
      },
      'the terminals "Agent #1" and "Reviewer" back after the reload',
      30_000,
    );
    await page.locator(".part.panel .tabs-list .monaco-list-row", { hasText: "Agent #1" }).click();
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes("Slow step finished."), "the turn's end in Agent #1's terminal", 20_000);
    const screen = await terminalText(page, ".part.panel");
    expect(screen).not.toMatch(/hook failed|hook error/i);
    // Bound again to its terminal: the card stops reconnecting.
    await showPanel();
    await pollUntil(
      async () => (await (await details("Agent #1")).locator('[data-testid="agent-reconnecting"]').count()) === 0,
      "Agent #1 bound again",
      30_000,
    );
  });

  /** The collision warnings on an agent's card, as it reads them. */
  async function warnings(name: string): Promise<string[]> {
    const texts = await (await details(name)).locator('[data-testid="shared-file"]').allTextContents();
    return texts.map((t) => t.replace(/\s+/g, " ").trim());
  }
  const idle = (name: string) => pollUntil(async () => (await line(name).getAttribute("data-status")) === "waiting", `${name} idle`, 60_000);
  /**
   * Types to an agent as a person does: a click on its line brings its terminal to the front. (Its
   * row in the terminal view's tab list was once not drawn within 30 s in CI.)
   */
  async function typeTo(name: string, text: string): Promise<void> {
    await showPanel();
    await line(name).locator(".agent-line-main").click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 30_000 });
    await waitForClaudePrompt(".part.panel");
    await typeInTerminal(text, ".part.panel");
  }

  it("two agents edit src/app.ts, left uncommitted: each card's collision warning is there again after a window reload, in the same words", async () => {
    await typeTo("Agent #1", FIRST_EDIT);
    await pollUntil(() => app().includes(APP.betterComment), "Agent #1's edit of src/app.ts", 60_000);
    await showPanel();
    await idle("Agent #1");
    await typeTo("Reviewer", SECOND_EDIT);
    await showPanel();
    // The guard asks before the second edit of the file the first changed and did not commit.
    const ask = prompts("Reviewer", "permission");
    await ask.waitFor({ timeout: 60_000 });
    await expect(ask.textContent()).resolves.toMatch(/Agent #1 also edits src\/app\.ts/);
    await ask.locator('[data-testid="prompt-allow"]').click();
    await pollUntil(() => app().includes(APP.nonBlank), "Reviewer's edit of src/app.ts", 60_000);
    await idle("Reviewer");
    expect(execFileSync("git", ["status", "--porcelain", "--", "src/app.ts"], { cwd: workspace, encoding: "utf8" })).toBe(" M src/app.ts\n");
    const before = { agent: await warnings("Agent #1"), reviewer: await warnings("Reviewer") };
    expect(before).toEqual({ agent: ["Reviewer also edits src/app.ts"], reviewer: ["Agent #1 also edits src/app.ts"] });
    await vs.screenshot("edges-collision-before-reload");

    const reloadedAt = Date.now();
    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    for (const name of ["Agent #1", "Reviewer"])
      await pollUntil(async () => (await (await details(name)).locator('[data-testid="agent-reconnecting"]').count()) === 0, `${name} bound again`, 60_000);
    figures.reloadToBothBoundMs = Date.now() - reloadedAt;
    let after: typeof before | undefined;
    await pollUntil(
      async () => {
        after = { agent: await warnings("Agent #1"), reviewer: await warnings("Reviewer") };
        return after.agent.length > 0 && after.reviewer.length > 0;
      },
      "both cards' collision warnings after the reload",
      30_000,
    ).catch(() => undefined);
    figures.reloadToWarningsMs = Date.now() - reloadedAt;
    await vs.screenshot("edges-collision-after-reload");
    expect(after).toEqual(before);
    // On screen where the user reads it: inside the panel's page, and what is there at its centre.
    await details("Reviewer");
    const seen = await (
      await panelContentFrame(page)
    ).evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid="shared-file"]'), (w) => {
        const r = w.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && hit !== null && w.contains(hit);
      }),
    );
    expect(seen).toEqual([true]);
    // Item 12 as read at 300 px in the side bar too: the warning's words and the names whole, nothing sideways.
    const across = await widthSeen(await arcadiaFrame(page, "agents"), '[data-testid="shared-file"], [data-testid="line-name"], [data-testid="agent-name"]');
    figures.collisionWidth = across;
    expect(across.items.map((i) => i.text)).toContain("Agent #1 also edits src/app.ts");
    expect(widthProblems(across)).toEqual([]);
    // Still uncommitted: the warning is true.
    expect(execFileSync("git", ["status", "--porcelain", "--", "src/app.ts"], { cwd: workspace, encoding: "utf8" })).toBe(" M src/app.ts\n");
  });

  it('arcadia.extraArgs ["--modle"] gives "claude exited" with the CLI\'s own message, within 2 s', async () => {
    // A machine setting (a workspace cannot add arguments): changed where the user would, in code-server's Machine settings.
    updateUserSetting(vs.userDataDir, "arcadia.extraArgs", ["--modle"]);
    await vs.waitForExtensionLog(/setting arcadia\.extraArgs is now \["--modle"\]/, { timeoutMs: 20_000 });
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await showPanel();
    await line("Agent #3").waitFor({ timeout: 20_000 });
    const cardAt = Date.now();
    await pollUntil(async () => (await line("Agent #3").getAttribute("data-status")) === "exited", "Agent #3 exited", 20_000);
    figures.cardToExitedMs = Date.now() - cardAt;
    expect(figures.cardToExitedMs).toBeLessThanOrEqual(2_000);
    await expect((await details("Agent #3")).locator('[data-testid="agent-status"]').textContent()).resolves.toContain("claude exited");
    await expect((await details("Agent #3")).locator('[data-testid="agent-exit-message"]').textContent()).resolves.toMatch(/unknown option.*--modle/);
    await expect((await details("Agent #3")).locator('[data-testid="restart-agent"]').count()).resolves.toBe(1);
    await vs.screenshot("edges-modle-exited");
  });
});

/// <reference lib="dom" />
/**
 * A fan-out as the very first thing done in a new window, with terminals in the editor area
 * (`terminal.integrated.defaultLocation: "editor"`), in a real VS Code (code-server + Chromium)
 * with the real Claude Code CLI, the scripted model and real git: "Arcadia: Run on Several
 * Agents…" from the palette, three agents. As a user sees it: three terminals open as editor tabs,
 * each card leaves "Starting…" and carries its race tag, and each task reaches the model exactly
 * once (one session each, never twice). Issue 33 item 14: members were left "Starting…" for good.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { e2eAvailable, pollUntil, revealArcadiaView, runCommand, type VsCode, widthProblems, widthSeen } from "./harness";
import { focusWorkbench } from "./workbench";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";

const available = e2eAvailable("a fan-out of three as a new window's first action, terminals in the editor area (e2e)");
const TASK = "Greet the reader";
const IDENTITY = { GIT_AUTHOR_NAME: "E2E", GIT_AUTHOR_EMAIL: "e2e@example.com", GIT_COMMITTER_NAME: "E2E", GIT_COMMITTER_EMAIL: "e2e@example.com" };

describe.skipIf(!available)("a fan-out as a new window's first action, terminals in the editor area (real VS Code, real CLI, real git)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const quickInput = () => page.locator(".quick-input-widget input");
  const quickRow = (text: string) => page.locator(".quick-input-widget .monaco-list-row", { hasText: text });
  const lineOf = (frame: Frame, name: string) =>
    frame.locator('[data-testid="agent-line"]', { has: frame.getByTestId("line-name").getByText(name, { exact: true }) });

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "fan-out-first",
      extraEnv: IDENTITY,
      settings: {
        "terminal.integrated.defaultLocation": "editor",
        // A new window as VS Code opens it by default (the e2e defaults turn these off): terminals
        // kept by the pty host across reloads, the Welcome page in the editor area.
        "terminal.integrated.enablePersistentSessions": true,
        "workbench.startupEditor": "welcomePage",
      },
      prepareWorkspace: (folder) => {
        const git = (...args: string[]) => execFileSync("git", args, { cwd: folder, env: { ...process.env, ...IDENTITY } });
        writeFileSync(join(folder, ".gitignore"), "/.claude/worktrees/\n");
        git("init", "-q", "-b", "main");
        git("add", "-A");
        git("commit", "-q", "-m", "base");
      },
      script: { conversations: [], fallbackText: "Hello, reader." },
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-fan-out-first-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 50)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      const seen = win?.model.requests.map((r) => `${r.time} ${r.headers["x-claude-code-session-id"] ?? "-"} ${r.body?.lastUserText.slice(0, 40) ?? ""}`);
      console.log(`model requests at the failure:\n${seen?.join("\n")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (fan-out first): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  /** Per session, how many requests carry the task as its newest words (one per time it was submitted). */
  const asked = () => {
    const sessions = new Map<string, number>();
    for (const r of win.model.requests) {
      const session = r.headers["x-claude-code-session-id"];
      if (session && r.body && r.body.tools > 0 && r.body.lastUserText.includes(TASK)) sessions.set(session, (sessions.get(session) ?? 0) + 1);
    }
    return sessions;
  };

  it("fans out to three agents first thing: three editor terminals, three cards working with their race tags, each task at the model once", async () => {
    // The window's first action: nothing shown or clicked before it (the panel, a terminal).
    await runCommand(page, "Arcadia: Run on Several Agents…", 60_000, "Run on Several Agents (1/3)");
    await quickInput().fill(TASK);
    await quickInput().press("Enter");
    await quickRow("3 agents").click({ timeout: 10_000 });
    await quickRow("Every agent with the default model").click({ timeout: 10_000 });
    const answeredAt = Date.now();

    await pollUntil(() => asked().size === 3, "the three tasks at the model", 180_000);
    figures.answerToThirdTaskAtModelMs = Date.now() - answeredAt;
    // Anything typed twice would come within seconds of the rest.
    await page.waitForTimeout(8_000);
    expect([...asked().values()]).toEqual([1, 1, 1]);

    // Three terminals, each an editor tab named as its card.
    const tabs = page.locator(".part.editor .tab", { hasText: /^Agent #\d/ });
    await pollUntil(async () => (await tabs.count()) === 3, "three agent terminals as editor tabs", 30_000);
    expect((await tabs.allTextContents()).map((t) => t.trim().match(/Agent #\d/)?.[0]).sort()).toEqual(["Agent #1", "Agent #2", "Agent #3"]);
    await vs.screenshot("fan-out-first-1-editor-terminals");

    await focusWorkbench(page);
    await revealArcadiaView(page, "arcadia.panelView");
    const panel = await arcadiaFrame(page, "agents", 30_000);
    await pollUntil(async () => (await panel.locator('[data-testid="agent-line"]').count()) === 3, "three cards", 20_000);
    const race = /race (\S+): 3 agents on main/.exec(vs.extensionLog())?.[1];
    expect(race).toBeTruthy();
    for (const n of [1, 2, 3]) {
      const line = lineOf(panel, `Agent #${n}`);
      await pollUntil(async () => (await line.locator('[data-testid="line-race"]').textContent()) === `race: ${race} ${n}/3`, `Agent #${n}'s race tag`, 20_000);
      // Its turn done: idle by its own CLI, not "Starting…".
      await pollUntil(async () => (await line.getAttribute("data-status")) === "waiting", `Agent #${n} idle after its turn`, 30_000);
    }
    // As read at 300 px in the side bar too: names, statuses and race tags' n/3 whole, nothing sideways.
    // (A narrow tag's task gives way, cut with "…" by design; its n/3 never does.)
    const lines = await widthSeen(panel, '[data-testid="line-name"], [data-testid="line-status"], [data-testid="line-race"] .line-race-count');
    figures.linesWidth = lines;
    expect(lines.items.filter((i) => /^\d\/3$/.test(i.text)).map((i) => i.text)).toEqual(["1/3", "2/3", "3/3"]);
    expect(widthProblems(lines)).toEqual([]);
    expect(vs.extensionLog()).not.toMatch(/did not start|was not ready in time/);
    const timing = new RegExp(`race ${race}: 3 tasks typed (\\d+) ms after the start, (\\d+) ms after the last claude was ready; all working on it (\\d+) ms`);
    const logged = await pollUntil(() => timing.exec(vs.extensionLog()) ?? undefined, "the extension's timing line", 30_000);
    Object.assign(figures, { startToAllTypedMs: Number(logged[1]), lastReadyToAllTypedMs: Number(logged[2]), startToAllWorkingMs: Number(logged[3]) });
    // Each member's steps (launched: its terminal opened in its turn, after the shell of the one before).
    console.log(`fan-out first: ${logged.input.slice(logged.index).split("\n")[0]}`);
    await vs.screenshot("fan-out-first-2-three-cards");
  }, 300_000);
});

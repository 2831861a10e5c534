/// <reference lib="dom" />
/**
 * MCP calls and permission prompts in a real VS Code (code-server + Chromium), with the real Claude Code CLI in its
 * terminals and the scripted model, all inside one loopback-only namespace:
 * - a hung `mcp__arcadia__execute_command` call, allowed after its approval waited ≥ 8 s, shows
 *   on its row with a ticking counter that counts from Allow, not from the question (issue 33 item
 *   10), and Complete finishes it so the agent carries on, its row saying the command still runs
 *   (again timed from Allow) until Stop, and the finished row's time leaving the wait out;
 * - Claude Code's own permission prompt makes the card "needs permission" with Allow / Deny on
 *   the row, and Allow from the panel runs the tool;
 * - a permission prompt for a command longer than the card shows all of it;
 * - a terminal where `claude` was started by hand gets a card of its own.
 * Its own window and workspace; the scenarios run in order on it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { writeClaudeWrapper } from "../rig/claudeWrapper.js";
import { createHome } from "../rig/home.js";
import { startModelServer, type ModelServer } from "../rig/model-server.js";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, runCommand, startVsCode, terminalText, type VsCode, widthProblems, widthSeen } from "./harness";
import { agentPanel } from "./agentPanel";
import { agentClocks, expectFromAllow, fromAllow, prefixed, secondsIn } from "./callClocks";
import { arcadiaFrame, panelContentFrame } from "./panelFrame";

const available = e2eAvailable("MCP force-finish and permission prompts in VS Code (e2e)");

const MARK = "started-marker";
/** Prints a line, then never exits on its own: a hung call that only Complete or Cancel ends. */
const ENDLESS = `echo ${MARK}; sleep 100000`;
const ALLOWED_FILE = "e2e-allowed.txt";
/**
 * The attack on what the user sees: a command padded with 200 spaces, so that what runs
 * after the padding ("&& echo … > tail file") is pushed past the edge of a one-line prompt. The
 * tail alone is longer than the card is wide, so the prompt has to wrap to show it.
 */
const TAIL_FILE = "e2e-hidden-tail.txt";
const TAIL = `&& echo ${"hidden-tail-".repeat(16)} > ${TAIL_FILE}`;
const PADDED_COMMAND = `touch e2e-padded.txt${" ".repeat(200)}${TAIL}`;

/** `ARCADIA_E2E_VSIX=<file.vsix>` runs the scenarios against another build. */
const VSIX = process.env.ARCADIA_E2E_VSIX;

/** How long the user takes to answer the approval of the hung command. */
const WAIT_BEFORE_ALLOW_MS = 8_500;

const script: Script = {
  conversations: [
    {
      match: "Run the endless command",
      steps: [
        { tools: [{ name: "mcp__arcadia__execute_command", input: { command: ENDLESS } }] },
        // The agent carries on after Complete: a next tool (read-only, so no prompt), then text.
        { tools: [{ name: "Bash", input: { command: "echo after-complete", description: "Print after-complete" } }] },
        { text: "Carried on after Complete." },
      ],
    },
    // `touch` is not read-only: in default mode the CLI asks before running it.
    {
      match: "Touch the allowed file",
      steps: [{ tools: [{ name: "Bash", input: { command: `touch ${ALLOWED_FILE}`, description: "Create a file" } }] }, { text: "Touched." }],
    },
    {
      match: "Touch the padded file",
      steps: [{ tools: [{ name: "Bash", input: { command: PADDED_COMMAND, description: "Create a file" } }] }, { text: "Padded done." }],
    },
    {
      match: "Work in the adopted terminal",
      steps: [{ tools: [{ name: "Bash", input: { command: "echo adopted-work", description: "Print" } }] }, { text: "Adopted work done." }],
    },
  ],
  fallbackText: "OK.",
};

describe.skipIf(!available)("MCP force-finish and Claude Code's permission prompts in a real VS Code", () => {
  let root: string;
  let workspace: string;
  let home: string;
  let claude: string;
  let model: ModelServer;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, number> = {};

  // Terminals are in the bottom panel unless a scenario moves one to the editor area.
  const { panel, cards, showPanel, waitForClaudePrompt, typeInTerminal, line, details, prompts } = agentPanel(() => page, ".part.panel");
  const statusOf = (name: string) => line(name).getAttribute("data-status");

  /**
   * Records in the panel's own page, to the millisecond, when each selector first matches (or,
   * with `gone`, first stops matching). Read back with `watched()`.
   */
  async function watchPanel(marks: Record<string, { selector: string; gone?: boolean }>): Promise<Frame> {
    const frame = await panelContentFrame(page);
    await frame.evaluate((m) => {
      const w = window as unknown as { __marks: Record<string, number> };
      w.__marks = {};
      const check = () => {
        for (const [name, { selector, gone }] of Object.entries(m)) {
          if (w.__marks[name] !== undefined) continue;
          const present = document.querySelector(selector) !== null;
          if (present !== Boolean(gone)) w.__marks[name] = Date.now();
        }
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    }, marks);
    return frame;
  }

  const clocksOf = (name: string) => agentClocks(page, name);

  const watched = (frame: Frame) => frame.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks);

  /** A toolkit button may render before its `disabled` settles: wait until it is clickable. */
  async function clickWhenEnabled(locator: ReturnType<FrameLocator["locator"]>, what: string): Promise<number> {
    await locator.waitFor({ timeout: 20_000 });
    await pollUntil(async () => (await locator.getAttribute("disabled")) === null, `${what} enabled`, 10_000);
    const at = Date.now();
    await locator.click();
    return at;
  }

  /** `statusUpdatedAt` of the CLI status file (`<config>/sessions/<pid>.json`) that waits on a
   * permission prompt, if one does. */
  function permissionStatusSince(): number | undefined {
    const dir = join(home, ".claude", "sessions");
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      try {
        const file = JSON.parse(readFileSync(join(dir, name), "utf8")) as { status?: string; waitingFor?: string; statusUpdatedAt?: number };
        if (file.status === "waiting" && /permission/i.test(file.waitingFor ?? "")) return file.statusUpdatedAt;
      } catch {
        // Being rewritten: not this one.
      }
    }
    return undefined;
  }

  /** Names of the terminals in VS Code's terminal tab list. */
  async function terminalNames(): Promise<string[]> {
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    // One terminal shows as a single tab, more as a list; the view switches as terminals come.
    return page.locator(".part.panel .single-terminal-tab, .part.panel .tabs-list .monaco-list-row").allTextContents();
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-perm-")));
    workspace = join(root, "workspace");
    home = join(root, "home");
    mkdirSync(workspace, { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(workspace, "README.md"), "# Sample workspace\n");
    createHome(workspace, { home });
    model = await startModelServer({ script });
    claude = writeClaudeWrapper(join(root, "bin"), { modelUrl: model.url, env: { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" } });
    vs = await startVsCode({
      workspace,
      // Another build (one weakened to show the clocks' checks fail on it); without it, dist/arcadia.vsix.
      ...(VSIX ? { vsix: VSIX } : {}),
      extraEnv: { HOME: home },
      settings: {
        "arcadia.claudePath": claude,
        // Every execute_command waits for Allow: the hung command's clocks must start there, not
        // at the question (an application-scope setting: a workspace's value is ignored).
        "arcadia.mcp.commandApproval": "always",
        // No "arcadia.extraArgs" (--allowedTools): the permission scenario needs the CLI to ask
        // (the wrapper passes --permission-mode default). Arcadia's own MCP tools must run without
        // the CLI asking: the --settings file Arcadia passes pre-allows them.
      },
    });
    page = vs.page;
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-mcp-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      for (const part of [".part.panel", ".part.editor"])
        console.log(`terminal in ${part} at the failure:\n${await terminalText(page, part).catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (mcp & permissions): ${JSON.stringify(figures)}`);
    await vs?.close();
    await model?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("a hung execute_command shows on its row with a ticking counter; Complete finishes it and the agent carries on", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await waitForClaudePrompt();
    await typeInTerminal("Run the endless command");
    // Arcadia asks before the command runs; the user takes a while to answer (≥ 8 s).
    await showPanel();
    const approval = prompts("Agent #1", "command");
    await approval.waitFor({ timeout: 30_000 });
    await expect(approval.textContent()).resolves.toContain("sleep 100000");
    // Seen at the latest now (the panel was behind the terminal as it came): the wait is at least this long.
    const askedAt = Date.now();
    await page.waitForTimeout(Math.max(0, WAIT_BEFORE_ALLOW_MS - (Date.now() - askedAt)));
    await expect((await details("Agent #1")).locator('[data-testid="call-elapsed"]').count()).resolves.toBe(0);
    const allowedAt = await clickWhenEnabled(approval.locator('[data-testid="prompt-allow"]'), "Allow");
    figures.approvalWaitMs = allowedAt - askedAt;

    // The command runs in the agent's own commands terminal, visible to the user.
    await pollUntil(
      async () => (await terminalNames()).some((n) => n.includes("Arcadia: Agent #1 commands")),
      'the terminal "Arcadia: Agent #1 commands"',
      30_000,
    );
    await page.locator(".part.panel .tabs-list .monaco-list-row", { hasText: "Agent #1 commands" }).click();
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes(MARK), `"${MARK}" in the commands terminal`, 10_000);
    await showPanel();
    // Cancel / Complete are pinned under the card's header; the call's row is marked as having it.
    const liveCall = (await details("Agent #1")).locator('[data-testid="running-strip"] [data-testid="live-call"]');
    await liveCall.waitFor({ timeout: 30_000 });
    const row = (await details("Agent #1")).locator('[data-testid="tool-row"].has-live');
    const toolUseId = await row.getAttribute("data-tool-id");
    expect(toolUseId).toMatch(/^toolu_/);
    await expect(liveCall.getAttribute("data-tool-use-id")).resolves.toBe(toolUseId);
    await expect(row.getAttribute("data-outcome")).resolves.toBe("running");
    await expect(row.textContent()).resolves.toContain("Running: echo started-marker");
    await expect(statusOf("Agent #1")).resolves.toBe("active");
    // Allowed, nothing asks any more: the row shows the call, not a prompt.
    await expect(prompts("Agent #1").count()).resolves.toBe(0);

    // The counter ticks in the webview: its value grows over ≥ 2 s.
    const seconds = async () => secondsIn((await liveCall.locator('[data-testid="call-elapsed"]').textContent()) ?? "");
    const first = await seconds();
    await page.waitForTimeout(2_200);
    const second = await seconds();
    expect(second - first).toBeGreaterThanOrEqual(2);
    // Every clock of the running call counts from Allow, not from the question: the row's counter
    // (pinned under the header) and the overview line's time, read in the page at one moment.
    const running = await clocksOf("Agent #1");
    const runningFigures = fromAllow(running, askedAt, allowedAt);
    figures.runningCounterS = secondsIn(running.call[0]);
    figures.runningLineS = secondsIn(running.line[0]);
    Object.assign(figures, prefixed("running", runningFigures));
    expect(running.call, "one running counter for the call").toHaveLength(1);
    expectFromAllow(secondsIn(running.call[0]), runningFigures, "the call's running counter");
    expect(running.line, "the overview line's time").toHaveLength(1);
    expectFromAllow(secondsIn(running.line[0]), runningFigures, "the overview line's time");
    await vs.screenshot("mcp-1-live-call");
    await vs.readmeShot("hung-call-complete");

    const thisRow = `[data-testid="tool-row"][data-tool-id="${toolUseId}"]`;
    const frame = await watchPanel({
      callGone: { selector: '[data-testid="live-call"]', gone: true },
      rowFinished: { selector: `${thisRow}[data-outcome="done"], ${thisRow}[data-outcome="error"]` },
      waiting: { selector: '[data-testid="agent-line"][data-status="waiting"]' },
    });
    // Cancel / Complete and the counter whole, where a click lands, nothing sideways (at 300 px in the side bar too).
    const beforeComplete = await widthSeen(
      await arcadiaFrame(page, "agents"),
      '[data-testid="running-strip"] [data-testid="call-elapsed"], [data-testid="running-strip"] [data-testid="call-cancel"], [data-testid="running-strip"] [data-testid="call-complete"]',
      true,
    );
    console.log(`running strip at ${beforeComplete.width} px: ${JSON.stringify(beforeComplete.items)}`);
    expect(beforeComplete.items).toHaveLength(3);
    expect(widthProblems(beforeComplete)).toEqual([]);
    const clickedAt = await clickWhenEnabled(liveCall.locator('[data-testid="call-complete"]'), "Complete");

    await pollUntil(async () => (await liveCall.count()) === 0, "the live call to go", 10_000);
    const finished = (await details("Agent #1")).locator(thisRow);
    await pollUntil(
      async () => ["done", "error"].includes((await finished.getAttribute("data-outcome")) ?? ""),
      "the row's outcome from the transcript",
      20_000,
    );
    // The agent carries on: its next tool runs and ends, and the turn completes normally.
    await (await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: "echo after-complete" }).waitFor({ timeout: 20_000 });
    await pollUntil(async () => (await statusOf("Agent #1")) === "waiting", "Agent #1 waiting after its turn", 30_000);
    await expect(finished.getAttribute("data-outcome")).resolves.toBe("done");
    await expect(
      (await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: "echo after-complete" }).getAttribute("data-outcome"),
    ).resolves.toBe("done");
    // The command itself runs on in its terminal (by design): pinned under the card's header, it says so, with Stop, until it exits.
    const stillRunning = (await details("Agent #1")).locator('[data-testid="running-strip"] [data-testid="still-running"]');
    await stillRunning.waitFor({ timeout: 10_000 });
    await expect(stillRunning.textContent()).resolves.toContain("Completed early — still running");
    // "still running" for as long as since Allow; the finished row's own time is Allow → Complete,
    // and the wait shows apart as "waited".
    const after = await clocksOf("Agent #1");
    const afterFigures = fromAllow(after, askedAt, allowedAt);
    Object.assign(figures, prefixed("stillRunning", afterFigures));
    figures.stillRunningS = secondsIn(after.still[0]);
    expect(after.still, "one still-running time").toHaveLength(1);
    expectFromAllow(secondsIn(after.still[0]), afterFigures, '"still running" time');
    const rowTime = await finished.locator('[data-testid="tool-elapsed"]').textContent();
    const waited = await finished.locator('[data-testid="tool-waited"]').textContent();
    const ranS = (clickedAt - allowedAt) / 1000;
    figures.finishedRowS = secondsIn(rowTime ?? "");
    figures.allowToCompleteS = Math.round(ranS * 10) / 10;
    figures.questionToCompleteS = Math.round(((clickedAt - askedAt) / 1000) * 10) / 10;
    figures.rowWaitedS = secondsIn((waited ?? "").replace("waited", ""));
    // The row ended at Complete's answer (a moment after the click): its time is the run's, not the run's plus the wait.
    expect(secondsIn(rowTime ?? ""), `the finished row's time (${rowTime}) against Allow → Complete ${ranS.toFixed(1)} s`).toBeGreaterThanOrEqual(
      Math.floor(ranS) - 1,
    );
    expect(secondsIn(rowTime ?? ""), `the finished row's time (${rowTime}) against Allow → Complete ${ranS.toFixed(1)} s`).toBeLessThanOrEqual(ranS + 3);
    expect(secondsIn((waited ?? "").replace("waited", "")), `the row's wait (${waited})`).toBeGreaterThanOrEqual(Math.floor(WAIT_BEFORE_ALLOW_MS / 1000) - 1);
    await vs.screenshot("mcp-3-completed-still-running");
    // Item 10 as read: "still running", its time and Stop whole, Stop where a click lands, nothing sideways.
    const stillSeen = await widthSeen(
      await arcadiaFrame(page, "agents"),
      '[data-testid="still-running"] .still-running-text, [data-testid="still-running-elapsed"], [data-testid="command-stop"]',
      true,
    );
    console.log(`still running at ${stillSeen.width} px: ${JSON.stringify(stillSeen.items)}`);
    expect(stillSeen.items.map((i) => i.text)).toEqual(["Completed early — still running", expect.stringMatching(/\d/), "Stop"]);
    expect(widthProblems(stillSeen)).toEqual([]);
    await clickWhenEnabled(stillRunning.locator('[data-testid="command-stop"]'), "Stop");
    await pollUntil(async () => (await stillRunning.count()) === 0, "the command stopped, and gone from the card", 10_000);

    const marks = await watched(frame);
    if (marks.callGone) figures.completeClickToLiveCallGoneMs = marks.callGone - clickedAt;
    if (marks.rowFinished) figures.completeClickToRowFinishedMs = marks.rowFinished - clickedAt;
    if (marks.waiting) figures.completeClickToWaitingMs = marks.waiting - clickedAt;
    await vs.screenshot("mcp-2-completed");
  });

  it('Claude Code\'s permission prompt makes the card "needs permission" with Allow / Deny on the row; Allow runs the tool', async () => {
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await waitForClaudePrompt();
    // The terminal and the panel side by side (the panel's tabs show one view at a time): the
    // terminal goes into the editor area, so the moment each shows the prompt can be compared.
    await runCommand(page, "Terminal: Move Terminal into Editor Area");
    await page.locator(".part.editor .tab", { hasText: "Agent #2" }).waitFor({ timeout: 10_000 });
    await waitForClaudePrompt(".part.editor");
    await showPanel();
    await line("Agent #2").waitFor();

    const askedIn = await page.evaluate(() => {
      const w = window as unknown as { __askedAt?: number };
      const rows = document.querySelector(".part.editor .terminal-wrapper.active .xterm-rows");
      if (!rows) return false;
      const check = () => {
        if (w.__askedAt === undefined && (rows.textContent ?? "").includes("Do you want")) w.__askedAt = Date.now();
      };
      new MutationObserver(check).observe(rows, { subtree: true, childList: true, characterData: true });
      return true;
    });
    expect(askedIn, "the terminal's rows in the editor area").toBe(true);
    const frame = await watchPanel({ needsPermission: { selector: '[data-testid="agent-line"][data-status="needsYou"]' } });

    await typeInTerminal("Touch the allowed file", ".part.editor");
    await pollUntil(async () => (await terminalText(page, ".part.editor")).includes("Do you want"), "the CLI's permission prompt in the terminal", 30_000);
    await pollUntil(async () => (await statusOf("Agent #2")) === "needsYou", "Agent #2 needs permission", 10_000);
    const askedAt = await page.evaluate(() => (window as unknown as { __askedAt?: number }).__askedAt);
    const needsAt = (await watched(frame)).needsPermission;
    if (askedAt && needsAt) figures.terminalPromptToNeedsPermissionMs = needsAt - askedAt;
    // The CLI's own clock for the same moment: when its status file turned to the prompt.
    const waitingSince = permissionStatusSince();
    if (waitingSince && needsAt) figures.statusFileWaitingToNeedsPermissionMs = needsAt - waitingSince;

    const prompt = prompts("Agent #2", "permission");
    await prompt.waitFor({ timeout: 10_000 });
    const row = (await details("Agent #2")).locator('[data-testid="tool-row"]').filter({ has: panel().locator('[data-testid="tool-asks"]') });
    const toolUseId = await row.getAttribute("data-tool-id");
    expect(toolUseId).toMatch(/^toolu_/);
    await expect(row.textContent()).resolves.toContain(`touch ${ALLOWED_FILE}`);
    await expect(prompt.locator('[data-testid="prompt-deny"]').count()).resolves.toBe(1);
    expect(existsSync(join(workspace, ALLOWED_FILE))).toBe(false);
    await vs.screenshot("permission-1-needs-permission");
    await vs.readmeShot("permission-prompt-on-the-card");

    const thisRow = `[data-testid="tool-row"][data-tool-id="${toolUseId}"]`;
    const after = await watchPanel({
      promptGone: { selector: '[data-testid="prompt"]', gone: true },
      statusLeft: { selector: '[data-testid="agent-line"][data-status="needsYou"]', gone: true },
      rowDone: { selector: `${thisRow}[data-outcome="done"]` },
    });
    const clickedAt = await clickWhenEnabled(prompt.locator('[data-testid="prompt-allow"]'), "Allow");
    await pollUntil(() => existsSync(join(workspace, ALLOWED_FILE)), `${ALLOWED_FILE} in the workspace`, 10_000);
    const fileAt = Date.now();
    await pollUntil(async () => (await (await details("Agent #2")).locator(thisRow).getAttribute("data-outcome")) === "done", "the row done", 20_000);
    await pollUntil(async () => (await prompts("Agent #2").count()) === 0, "the prompt to go", 10_000);
    await pollUntil(async () => (await statusOf("Agent #2")) === "waiting", "Agent #2 waiting after its turn", 20_000);
    // The terminal's own prompt went too: answered from the panel, not left behind.
    await expect(terminalText(page, ".part.editor")).resolves.not.toContain("Do you want");

    const marks = await watched(after);
    figures.allowClickToFileWrittenMsUpperBound = fileAt - clickedAt;
    if (marks.promptGone) figures.allowClickToPromptGoneMs = marks.promptGone - clickedAt;
    if (marks.statusLeft) figures.allowClickToStatusLeftNeedsPermissionMs = marks.statusLeft - clickedAt;
    if (marks.rowDone) figures.allowClickToRowDoneMs = marks.rowDone - clickedAt;
    await vs.screenshot("permission-2-allowed");
  });

  it("a permission prompt whose command is longer than the card shows all of it, end included, before Allow", async () => {
    await showPanel();
    await waitForClaudePrompt(".part.editor");
    // A new conversation (the scripted model picks its script by a conversation's first prompt);
    // the card follows the terminal onto the new session.
    await typeInTerminal("/clear", ".part.editor");
    await waitForClaudePrompt(".part.editor");
    await typeInTerminal("Touch the padded file", ".part.editor");
    await showPanel();
    const prompt = prompts("Agent #2", "permission");
    await prompt.waitFor({ timeout: 30_000 });
    await prompt.scrollIntoViewIfNeeded();
    const subject = prompt.locator(".prompt-subject");
    const shown = (await subject.textContent()) ?? "";
    // The padding is visible as what it is, and the part after it is there in full.
    expect(shown).toContain("␣×200");
    expect(shown).toContain(TAIL);
    // …and on screen, not cut off: nothing of the subject overflows sideways, and its last line
    // lies inside the agent's prompts (under the overview) and inside the panel's viewport.
    const geometry = await subject.evaluate((el) => {
      const card = el.closest('[data-testid="agent-prompts"]') as HTMLElement;
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = Array.from(range.getClientRects());
      const last = rects[rects.length - 1];
      const box = card.getBoundingClientRect();
      return {
        overflowsSideways: el.scrollWidth > el.clientWidth + 1,
        cardWidth: box.width,
        lastLineInCard: !!last && last.right <= box.right + 1 && last.left >= box.left - 1,
        lastLineInViewport: !!last && last.bottom <= window.innerHeight + 1 && last.top >= 0,
        lines: new Set(rects.map((r) => Math.round(r.top))).size,
      };
    });
    figures.paddedPromptLines = geometry.lines;
    figures.paddedPromptCardWidth = Math.round(geometry.cardWidth);
    expect(geometry.lines, "the subject was expected to need more than one line").toBeGreaterThan(1);
    expect(geometry.overflowsSideways, "the subject is cut off at the side").toBe(false);
    expect(geometry.lastLineInCard, "the subject's end lies outside the card").toBe(true);
    expect(geometry.lastLineInViewport, "the subject's end is out of view").toBe(true);
    // Deny, having read the end: nothing of it runs, and the card leaves "needs permission".
    await vs.screenshot("permission-3-padded-command");
    await clickWhenEnabled(prompt.locator('[data-testid="prompt-deny"]'), "Deny");
    await pollUntil(async () => (await prompts("Agent #2").count()) === 0, "the padded prompt to go", 10_000);
    await pollUntil(async () => (await statusOf("Agent #2")) !== "needsYou", "Agent #2 past its prompt", 20_000);
    expect(existsSync(join(workspace, TAIL_FILE))).toBe(false);
    expect(existsSync(join(workspace, "e2e-padded.txt"))).toBe(false);
  });

  it("a terminal where claude was started by hand gets a card that follows its session", async () => {
    await runCommand(page, "Terminal: Create New Terminal");
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    // A shell prompt first: typed too early, the command line could be lost.
    await pollUntil(async () => /[$#]\s*$/.test(await terminalText(page, ".part.panel")), "the shell prompt", 20_000);
    const typedAt = Date.now();
    await typeInTerminal(claude);
    await waitForClaudePrompt();
    await showPanel();
    await line("Agent #3").waitFor({ timeout: 20_000 });
    figures.handStartedClaudeToCardMsUpperBound = Date.now() - typedAt;
    await expect(cards().count()).resolves.toBe(3);
    await vs.screenshot("adopt-1-card");

    // Its work shows on that card, not on the others.
    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await waitForClaudePrompt();
    await typeInTerminal("Work in the adopted terminal");
    await showPanel();
    await (await details("Agent #3")).locator('[data-testid="tool-row"]', { hasText: "echo adopted-work" }).waitFor({ timeout: 20_000 });
    await pollUntil(async () => (await statusOf("Agent #3")) === "waiting", "Agent #3 waiting after its turn", 20_000);
    await expect((await details("Agent #3")).locator('[data-testid="tool-row"][data-outcome="done"]').count()).resolves.toBe(1);
    await expect((await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: "adopted-work" }).count()).resolves.toBe(0);
    await expect((await details("Agent #2")).locator('[data-testid="tool-row"]', { hasText: "adopted-work" }).count()).resolves.toBe(0);
    await vs.screenshot("adopt-2-followed");
  });
});

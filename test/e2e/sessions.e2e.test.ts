/// <reference lib="dom" />
/**
 * Sessions, in a real VS Code (code-server + Chromium) with the real Claude Code CLI and the
 * scripted model, in one loopback-only namespace. Two sessions are finished before the window
 * opens (`claude -p` in the workspace). The Sessions view lists both by their first prompts;
 * filtering finds one; opening it shows its prompt and tool rows in a reader tab; Resume starts
 * `claude --resume` in a new terminal with a card, and the model receives the earlier messages;
 * after two more turns the card shows the two earlier turns collapsed. Then (issue 33 item 7), sorted
 * by Tokens at 1400, 1100 and 800 px (and 650 with Arcadia in the side bar: the tab ~300 px): nothing scrolls sideways and every Show / Resume is on screen where
 * a click lands on it; the sort survives leaving the tab; a session whose worktree was removed
 * offers no Resume, says why, and a click where it would be starts nothing.
 */
import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { arcadiaPlace, e2eAvailable, pollUntil, type VsCode, widthProblems, widthSeen } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";

const available = e2eAvailable("the Sessions view: list, filter, read, resume (e2e)");
const COUNT = "Count the lines of the README";
const HELLO = "Say hello from the second session, then tell what the middleware does when a cookie has expired";
/** The session run in a git worktree that is removed before the window opens. */
const GONE = "Tally the words of the notes, twice";
const GONE_TREE = "gone-notes";
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
      // A repository, so a worktree can be made (and removed) as Arcadia's own are, under .claude/worktrees.
      prepareWorkspace: (folder) => {
        const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", ...args], { cwd: folder });
        git("init", "-q", "-b", "main");
        git("add", "-A");
        git("commit", "-q", "-m", "Sample");
        git("worktree", "add", "-q", "-b", GONE_TREE, join(".claude", "worktrees", GONE_TREE));
      },
      script: (): Script => ({
        conversations: [
          { match: COUNT, perPrompt: true, steps: [{ tools: [bash("wc -l README.md", "Count README lines")] }, { text: "The README has 1 line." }] },
          {
            match: GONE,
            steps: [
              { tools: [bash("wc -w README.md", "Count words")] },
              { tools: [bash("wc -w README.md", "Count words again")] },
              { text: "2 words, twice." },
            ],
          },
          { match: HELLO, steps: [{ text: "Hello from the second session." }] },
        ],
        fallbackText: "OK.",
      }),
    });
    ({ vs, page } = win);
    // Two finished sessions, written by the real CLI before the window opens (asynchronously: the
    // scripted model answers from this very process).
    const run = async (prompt: string, cwd = win.workspace) =>
      (
        await promisify(execFile)(win.claude, ["-p", prompt, "--allowedTools", "Bash"], {
          cwd,
          env: { ...process.env, HOME: win.home },
          encoding: "utf8",
          timeout: 90_000,
        })
      ).stdout;
    // The oldest: in a worktree, removed afterwards (its transcript stays in ~/.claude/projects).
    const tree = join(win.workspace, ".claude", "worktrees", GONE_TREE);
    expect(await run(GONE, tree)).toContain("2 words, twice.");
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: win.workspace });
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
    // Its button where a click lands, the page not scrolling sideways (in the side bar at 300 px too).
    expect(widthProblems(await widthSeen(agents, '[data-testid="open-sessions"]', true))).toEqual([]);
    const clickedAt = Date.now();
    await agents.locator('[data-testid="open-sessions"]').click();
    const sessions = await arcadiaFrame(page, "sessions");
    await pollUntil(async () => (await rowTitles(sessions)).length === 3, "three sessions listed", 20_000);
    figures.sessionsListedAfterClickMs = Date.now() - clickedAt;
    // From the page's own clock: the list in place, counted from the moment the view's page started.
    figures.sessionsListedAfterPageStartMs = await sessions.evaluate(() =>
      Math.round(performance.getEntriesByName("arcadia:sessions:listed")[0]?.startTime ?? -1),
    );
    // Newest first, each title whole (the editor tab has the width; a long one wraps, never cut).
    expect(await rowTitles(sessions)).toEqual([HELLO, COUNT, GONE]);
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

  /** What a user sees of the list in its tab: sideways scroll, and each row's Show / Resume (or why not) — on screen, and hit by a click at its centre. */
  /** `scrolled`: each action scrolled up or down into view first (a ~300 px tab is a tall list: the user scrolls it, never sideways). */
  const measureFit = (frame: Frame, scrolled = false) =>
    frame.evaluate((scrolled) => {
      const box = (e: Element | null) => (e ? { scroll: e.scrollWidth, client: e.clientWidth } : undefined);
      const actions = Array.from(document.querySelectorAll('[data-testid="session-resume"], [data-testid="session-cannot-resume"]'), (b) => {
        if (scrolled) b.scrollIntoView({ block: "center", inline: "nearest" });
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const onScreen = r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
        return { text: b.textContent?.trim() ?? "", right: Math.round(r.right), onScreen, hit: hit !== null && (hit === b || b.contains(hit)) };
      });
      return {
        width: window.innerWidth,
        page: box(document.scrollingElement),
        list: box(document.querySelector(".sessions")),
        table: box(document.querySelector(".session-table")),
        tableRight: Math.round(document.querySelector(".session-table")?.getBoundingClientRect().right ?? Infinity),
        actions,
      };
    }, scrolled);
  const fits = (m: Awaited<ReturnType<typeof measureFit>>) =>
    [m.page, m.list, m.table].every((b) => b !== undefined && b.scroll <= b.client) && m.tableRight <= m.width && m.actions.every((a) => a.onScreen && a.hit);

  /** The rows' titles and Tokens figures as shown ("1.2k" read as 1200, "—" as 0), top to bottom. */
  const tokenRows = (frame: Frame) =>
    frame.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid="session-row"]'), (row) => {
        const text = row.querySelectorAll("td")[7]?.textContent?.trim() ?? "";
        const k = /^([\d.]+)([kM]?)$/.exec(text);
        const tokens = text === "—" ? 0 : k ? Number(k[1]) * (k[2] === "k" ? 1e3 : k[2] === "M" ? 1e6 : 1) : NaN;
        return { title: row.querySelector('[data-testid="session-open"]')?.textContent ?? "", text, tokens };
      }),
    );
  const tokensSort = (frame: Frame) => frame.locator("th", { has: frame.locator('[data-testid="sort-tokens"]') }).getAttribute("aria-sort");

  it("sorted by Tokens fits its tab at 1400, 1100 and 800 px, keeps the sort when left, and offers no Resume for a session whose worktree is gone", async () => {
    let sessions = await arcadiaFrame(page, "sessions");
    await pollUntil(async () => (await tokenRows(sessions)).every((r) => !Number.isNaN(r.tokens)), "every row's tokens read", 20_000);
    await sessions.locator('[data-testid="sort-tokens"]').click();
    await pollUntil(async () => (await tokensSort(sessions)) === "descending", "the Tokens header saying it sorts, largest first", 10_000);
    const inTokenOrder = async (frame: Frame) => {
      const rows = await tokenRows(frame);
      const order = rows.map((r) => r.title);
      return rows.every((r, i) => i === 0 || rows[i - 1]!.tokens >= r.tokens) && order.indexOf(GONE) < order.indexOf(HELLO) ? rows : undefined;
    };
    figures.rowsByTokens = (await pollUntil(() => inTokenOrder(sessions), "the rows in token order, largest first", 10_000)).map(
      (r) => `${r.text} ${r.title.slice(0, 20)}`,
    );

    // The gone worktree's row: no Resume, and why instead (visible words, the whole reason on hover).
    const gone = sessions.locator('[data-testid="session-row"]', { hasText: GONE });
    expect(await gone.locator('[data-testid="session-resume"]').count()).toBe(0);
    const why = gone.locator('[data-testid="session-cannot-resume"]');
    expect((await why.textContent())?.trim()).toBe("Worktree gone");
    expect(await why.getAttribute("title")).toMatch(new RegExp(`^Cannot resume: its worktree ${GONE_TREE} is gone \\(.*${GONE_TREE}\\)`));
    // The other rows: Show for the resumed one (a card follows it), Resume for the rest.
    const rowCount = await sessions.locator('[data-testid="session-row"]').count();
    const labels = (await sessions.locator('[data-testid="session-resume"]').allTextContents()).map((t) => t.trim());
    expect(labels).toHaveLength(rowCount - 1);
    expect(labels).toContain("Show");
    expect(labels.filter((l) => l !== "Show" && l !== "Resume")).toEqual([]);

    // With Arcadia in the side bar (ARCADIA_E2E_PLACE=sidebar, ~300 px of it) the tab has what the
    // side bar leaves: ~1000, ~700, ~400 px, and at a 650 px window about 300 px.
    const widths = arcadiaPlace() === "sidebar" ? [1400, 1100, 800, 650] : [1400, 1100, 800];
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      let last: Awaited<ReturnType<typeof measureFit>> | undefined;
      await pollUntil(
        async () => {
          last = await measureFit(sessions, width < 800);
          return last.width < width && fits(last);
        },
        `the list fitting its tab in a ${width} px window`,
        15_000,
      ).catch(() => undefined);
      figures[`fitAt${width}`] = last;
      await vs.screenshot(`sessions-by-tokens-${width}`);
      expect(last!.width).toBeLessThan(width);
      expect(last!.page!.scroll, "the page scrolls sideways").toBeLessThanOrEqual(last!.page!.client);
      expect(last!.list!.scroll, "the list scrolls sideways").toBeLessThanOrEqual(last!.list!.client);
      expect(last!.table!.scroll, "the table is wider than its box").toBeLessThanOrEqual(last!.table!.client);
      expect(last!.tableRight, "the table past the tab's edge").toBeLessThanOrEqual(last!.width);
      expect(last!.actions.map((a) => a.text).sort()).toEqual([...labels, "Worktree gone"].sort());
      expect(last!.actions.filter((a) => !a.onScreen || !a.hit)).toEqual([]);
    }

    // A click where Resume would be starts nothing: no card, no request to the model, no message.
    const agents = await arcadiaFrame(page, "agents");
    const agentCount = () => agents.evaluate(() => document.querySelectorAll('[data-testid="agent-line"]').length);
    const cardsBefore = await agentCount();
    const requestsBefore = win.model.requests.length;
    const logBefore = vs.extensionLog().length;
    await why.click();
    await page.waitForTimeout(3_000); // longer than a resume takes to log and show its card here: nothing may come
    expect(await agentCount()).toBe(cardsBefore);
    expect(win.model.requests.length).toBe(requestsBefore);
    expect(vs.extensionLog().slice(logBefore)).not.toMatch(/resum/i);
    expect(await page.locator(".notifications-toasts .notification-toast", { hasText: /resume/i }).count()).toBe(0);

    // Leave the tab (the reader's tab in front) and come back: still by Tokens, in token order.
    await page.locator(".part.editor .tab", { hasText: "Session: Count the lines" }).click();
    await page.locator(".part.editor .tab.active", { hasText: "Session: Count the lines" }).waitFor({ timeout: 10_000 });
    await page.locator(".part.editor .tab", { hasText: "Arcadia Sessions" }).click();
    sessions = await arcadiaFrame(page, "sessions");
    await pollUntil(async () => (await tokensSort(sessions)) === "descending", "Tokens still the sort after coming back", 10_000);
    await pollUntil(() => inTokenOrder(sessions), "the rows still in token order after coming back", 10_000);
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});

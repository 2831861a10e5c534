/// <reference lib="dom" />
/**
 * Ten agents at a glance in a short panel, with the real CLI in eight terminals: at the default
 * window size (the bottom panel ~280 px high) every agent's name, status and current action are
 * on screen without scrolling, and both agents that wait on a permission prompt show it whole
 * with its buttons. With twelve open, the details of the agent whose terminal is in front show its
 * hung call's Complete on screen, where a click lands on it, and scrolled to its last row their
 * header is never overlapped (its name and status take the click). Narrowed to ~300 px, the panel never
 * scrolls sideways, no name, total or prompt is cut, ✕ on a working agent asks with Keep focused,
 * that Complete still takes the click, and the details follow a prompt answered. The agents' terminals
 * open in the editor area, so the panel stays in front while they work.
 */
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";
import { runCommand } from "./workbench";

const available = e2eAvailable("eight agents at a glance (e2e)");
const AGENTS = 8;
/** The two that wait on a permission prompt (touch is not read-only: the CLI asks). */
const ASKING = new Set([3, 6]);
const SLOW = (n: number) => `python3 -c "import time; time.sleep(${300 + n})"`;
/** The Bash tool's own limit for it (its default, 2 min, ended the first agents' commands while a loaded machine still started the last). */
const SLOW_TIMEOUT_MS = 600_000;
/** Then four more, the last running Arcadia's execute_command with a command that never ends: twelve open. */
const TOTAL = 12;
const HUNG = "echo hung-marker; sleep 100000";
/** Quick read-only commands #12 runs first: its details hold more rows than they show, scrolled under the header. */
const QUICK_ROWS = 14;

describe.skipIf(!available)("eight agents in a short panel (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, cards, prompts, showPanel, waitForClaudePrompt, typeInTerminal, promptTaken } = agentPanel(() => page, ".part.editor");

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "overview",
      // Each agent's terminal in the editor area: the bottom panel keeps Arcadia in front. The
      // slow command runs without asking; `touch` asks (the two agents that need the user).
      settings: { "terminal.integrated.defaultLocation": "editor", "arcadia.extraArgs": ["--allowedTools", "Bash(python3:*)"] },
      script: (): Script => ({
        conversations: [
          ...Array.from({ length: AGENTS }, (_, i) => i + 1).map((n) =>
            ASKING.has(n)
              ? {
                  match: `Task ${n} `,
                  steps: [{ tools: [{ name: "Bash", input: { command: `touch overview-${n}.txt`, description: "Create a file" } }] }, { text: "Touched." }],
                }
              : {
                  match: `Task ${n} `,
                  steps: [{ tools: [{ name: "Bash", input: { command: SLOW(n), description: "Work slowly", timeout: SLOW_TIMEOUT_MS } }] }, { text: "Done." }],
                },
          ),
          ...Array.from({ length: TOTAL - AGENTS - 1 }, (_, i) => AGENTS + 1 + i).map((n) => ({
            match: `Task ${n} `,
            steps: [{ tools: [{ name: "Bash", input: { command: SLOW(n), description: "Work slowly", timeout: SLOW_TIMEOUT_MS } }] }, { text: "Done." }],
          })),
          {
            // Rows enough to scroll under the details' sticky header (item 2), then the call that hangs.
            match: `Task ${TOTAL} `,
            steps: [
              ...Array.from({ length: QUICK_ROWS }, (_, k) => ({
                tools: [{ name: "Bash", input: { command: `echo row-${k + 1}`, description: `Row ${k + 1}` } }],
              })),
              { tools: [{ name: "mcp__arcadia__execute_command", input: { command: HUNG } }] },
              { text: "Completed." },
            ],
          },
        ],
        fallbackText: "OK.",
      }),
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-overview-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.editor").catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (overview): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  /** Opens agents #from…#to from the panel, each asked its task in its terminal (an editor tab). */
  async function openAndAsk(from: number, to: number): Promise<void> {
    for (let n = from; n <= to; n++) {
      await showPanel();
      await panel().locator('[data-testid="open-claude"]').click();
      const tab = page.locator(".part.editor .tab", { hasText: new RegExp(`Agent #${n}$`) });
      // Its title comes with its shell: on a loaded machine the eleventh took over 20 s.
      await tab.waitFor({ timeout: 60_000 });
      await tab.click();
      await waitForClaudePrompt();
      await typeInTerminal(`Task ${n} please`);
      await pollUntil(async () => (await terminalText(page, ".part.editor")).includes(`Task ${n} please`), `Agent #${n} prompted`, 30_000);
      await promptTaken(`Agent #${n}`);
    }
  }

  /**
   * The details scrolled to their last row: the header's name and status still take the click
   * (nothing scrolled over them: item 2) and the first rows have gone under it.
   */
  async function headerOverRows(frame: Frame) {
    return frame.evaluate(() => {
      const card = document.querySelector('[data-testid="agent-card"]')!;
      let scroller: Element | null = card;
      while (scroller && !(scroller.scrollHeight > scroller.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(scroller).overflowY)))
        scroller = scroller.parentElement;
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
      const header = card.querySelector(".agent-card-header")!;
      const parts = [card.querySelector('[data-testid="agent-name"]'), card.querySelector(".agent-status")].filter((p): p is Element => p !== null);
      const hits = parts.map((part) => {
        const r = part.getBoundingClientRect();
        const hitEl = document.elementFromPoint(r.left + Math.min(r.width / 2, 8), r.top + r.height / 2);
        return { text: part.textContent?.trim(), hit: hitEl !== null && header.contains(hitEl), hitWhat: hitEl ? `${hitEl.tagName} ${hitEl.className}` : "" };
      });
      return { scrolled: scroller ? scroller.scrollTop : 0, rows: card.querySelectorAll('[data-testid="tool-row"]').length, hits };
    });
  }

  /** The details' name and where their Complete is: on screen, inside every box that clips it, and what a click at its centre hits. */
  async function completeSeen(frame: Frame) {
    return frame.evaluate(() => {
      const button = document.querySelector('[data-testid="agent-card"] [data-testid="running-strip"] [data-testid="call-complete"]');
      const name = document.querySelector('[data-testid="agent-card"] [data-testid="agent-name"]')?.textContent ?? null;
      if (!button) return { name, found: false, onScreen: false, unclipped: false, hit: false, hitWhat: "" };
      const r = button.getBoundingClientRect();
      const onScreen = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
      let unclipped = true;
      for (let el = button.parentElement; el; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const box = el.getBoundingClientRect();
        if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5) unclipped = false;
      }
      const hitEl = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const hit = hitEl !== null && (hitEl === button || button.contains(hitEl));
      return { name, found: true, onScreen, unclipped, hit, hitWhat: hitEl ? `${hitEl.tagName} ${hitEl.getAttribute("data-testid") ?? hitEl.className}` : "" };
    });
  }

  /** Every line's name (whole or cut), and each prompt's subject and buttons: on screen inside the overview's box, nothing scrolled to. */
  async function promptsSeen(frame: Frame) {
    return frame.evaluate(() => {
      const scroller = document.querySelector(".overview")!.getBoundingClientRect();
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        const inside = (box: { top: number; bottom: number; left: number; right: number }) =>
          r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
        return r.width > 0 && r.height > 0 && inside({ top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth }) && inside(scroller);
      };
      const all = (selector: string) => Array.from(document.querySelectorAll(selector));
      return {
        names: all('[data-testid="agent-line"] [data-testid="line-name"]').map((n) => ({ name: n.textContent, whole: n.scrollWidth <= n.clientWidth })),
        subjects: all('[data-testid="agent-prompts"] .prompt-subject').map((s) => ({ text: s.textContent, shown: shown(s) })),
        buttons: all('[data-testid="agent-prompts"] vscode-button').map((b) => ({ text: b.textContent?.trim(), shown: shown(b) })),
      };
    });
  }

  /** Arcadia's status bar item: its words, whether they are whole (not cut to "…"), and inside the window. */
  async function statusBarSeen() {
    return page.locator("#arcadia-dev\\.arcadia\\.arcadia\\.status").evaluate((item) => {
      const r = item.getBoundingClientRect();
      const cut = Array.from(item.querySelectorAll("*"))
        .concat(item)
        .some((el) => el.scrollWidth > el.clientWidth + 0.5 && getComputedStyle(el).overflow !== "visible");
      return {
        text: item.textContent?.trim() ?? "",
        whole: !cut && !(item.textContent ?? "").trim().endsWith("…"),
        inWindow: r.width > 0 && r.left >= 0 && r.right <= window.innerWidth,
      };
    });
  }

  it("eight agents, two asking: every name, status and action on screen, both prompts whole with their buttons, nothing to scroll", async () => {
    const started = Date.now();
    await openAndAsk(1, AGENTS);
    figures.eightAgentsStartedAndPromptedMs = Date.now() - started;
    await showPanel();
    await pollUntil(async () => (await cards().count()) === AGENTS, "eight lines", 30_000);
    for (const n of ASKING) await prompts(`Agent #${n}`, "permission").waitFor({ timeout: 60_000 });
    const frame = await arcadiaFrame(page, "agents");
    await pollUntil(
      async () =>
        (await frame.locator('[data-testid="agent-line"][data-status="active"] [data-testid="line-doing"]', { hasText: "python3" }).count()) ===
        AGENTS - ASKING.size,
      "six agents at work",
      60_000,
    );

    const seen = await frame.evaluate(() => {
      const viewport = { width: window.innerWidth, height: window.innerHeight };
      const scroller = document.querySelector(".overview")!.getBoundingClientRect();
      const shown = (el: Element | null) => {
        if (!el) return false;
        const r = el.getBoundingClientRect();
        const inside = (box: { top: number; bottom: number; left: number; right: number }) =>
          r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
        return r.width > 0 && r.height > 0 && inside({ top: 0, left: 0, bottom: viewport.height, right: viewport.width }) && inside(scroller);
      };
      return {
        viewport,
        scrolled: document.querySelector(".overview")!.scrollTop,
        lines: Array.from(document.querySelectorAll('[data-testid="agent-line"]')).map((line) => {
          const name = line.querySelector('[data-testid="line-name"]') as HTMLElement;
          return {
            name: name.textContent,
            nameWhole: name.scrollWidth <= name.clientWidth,
            nameShown: shown(name),
            status: line.getAttribute("data-status"),
            statusShown: shown(line.querySelector('[data-testid="line-status"]')) || shown(line.querySelector('[data-testid="line-doing"]')),
            doing: line.querySelector('[data-testid="line-doing"]')?.textContent ?? null,
            doingShown: shown(line.querySelector('[data-testid="line-doing"]')),
          };
        }),
        buttons: Array.from(document.querySelectorAll('[data-testid="agent-prompts"] vscode-button')).map((b) => ({
          text: b.textContent?.trim(),
          shown: shown(b),
        })),
        subjects: Array.from(document.querySelectorAll('[data-testid="agent-prompts"] .prompt-subject')).map((s) => ({ text: s.textContent, shown: shown(s) })),
      };
    });
    figures.panelViewport = seen.viewport;
    await vs.screenshot("overview-1-eight-agents");
    await vs.readmeShot("eight-agents-two-need-you");

    expect(seen.viewport.height, "the default panel is short").toBeLessThan(320);
    expect(seen.scrolled).toBe(0);
    expect(seen.lines.map((l) => l.name)).toEqual(Array.from({ length: AGENTS }, (_, i) => `Agent #${i + 1}`));
    for (const line of seen.lines) {
      expect(line.nameShown && line.nameWhole, `${line.name}'s name`).toBe(true);
      expect(line.statusShown, `${line.name}'s status`).toBe(true);
      expect(line.doingShown, `${line.name}'s current action (${line.doing})`).toBe(true);
    }
    expect(seen.lines.filter((l) => l.status === "needsYou").map((l) => l.name)).toEqual(["Agent #3", "Agent #6"]);
    expect(seen.subjects.map((s) => s.text)).toEqual(["Bash: touch overview-3.txt", "Bash: touch overview-6.txt"]);
    for (const subject of seen.subjects) expect(subject.shown, subject.text ?? "").toBe(true);
    expect(seen.buttons.filter((b) => b.text === "Allow")).toHaveLength(2);
    expect(seen.buttons.filter((b) => b.text === "Deny")).toHaveLength(2);
    for (const button of seen.buttons) expect(button.shown, `the ${button.text} button`).toBe(true);
  }, 240_000);

  it("twelve agents, the one in front running a command that hangs: its Complete is on screen in its details and takes the click", async () => {
    await openAndAsk(AGENTS + 1, TOTAL);
    await showPanel();
    // Arcadia asks before this command runs (it never ends on its own): Allow on the prompt. The
    // details stay on the agent whose prompt was answered, though its commands terminal comes to the front.
    const ask = prompts(`Agent #${TOTAL}`, "command");
    // After its quick rows: one model turn each.
    await ask.waitFor({ timeout: 120_000 });
    // Three ask at once (#3 and #6 since the first scene, #12 now) among twelve lines: each
    // prompt's subject and buttons are on screen, the third not scrolled away; every name whole;
    // the status bar's words whole (item 8).
    const asking = await promptsSeen(await arcadiaFrame(page, "agents"));
    figures.threeAsking = asking;
    await vs.screenshot("overview-2-twelve-agents-three-asking");
    expect(asking.names.filter((n) => !n.whole).map((n) => n.name)).toEqual([]);
    expect(asking.subjects.map((s) => s.text).slice(0, 2)).toEqual(["Bash: touch overview-3.txt", "Bash: touch overview-6.txt"]);
    expect(asking.subjects[2]?.text).toContain("echo hung-marker");
    for (const item of [...asking.subjects, ...asking.buttons]) expect(item.shown, `${item.text} on screen`).toBe(true);
    expect(asking.buttons.filter((b) => b.text === "Allow")).toHaveLength(3);
    const bar = await statusBarSeen();
    figures.statusBar = bar;
    expect(bar.text).toMatch(/\b\d+ working · 3 need you\b/);
    expect(bar.whole && bar.inWindow, `the status bar's "${bar.text}" whole`).toBe(true);
    await ask.locator('[data-testid="prompt-allow"]').click();
    await showPanel();
    const frame = await arcadiaFrame(page, "agents");
    // Running now (no longer waiting on the answer): its Complete is there.
    await frame.locator('[data-testid="agent-card"] [data-testid="running-strip"] [data-testid="call-complete"]').waitFor({ timeout: 60_000 });
    const seen = await completeSeen(frame);
    figures.twelveAgentsComplete = seen;
    await vs.screenshot("overview-2-twelve-agents-complete");
    expect(seen.name).toBe(`Agent #${TOTAL}`);
    expect(seen.onScreen && seen.unclipped, "Complete on screen, nothing to scroll").toBe(true);
    expect(seen.hit, `a click at Complete's centre lands on it (it hit ${seen.hitWhat})`).toBe(true);
    // Its rows scrolled under the header: the header is never overlapped (item 2).
    const over = await headerOverRows(frame);
    figures.headerOverRows = over;
    await vs.screenshot("overview-2b-details-scrolled");
    expect(over.scrolled, "the details scroll (more rows than they show)").toBeGreaterThan(0);
    for (const part of over.hits) expect(part.hit, `"${part.text}" in the header takes the click (it hit ${part.hitWhat})`).toBe(true);
  }, 300_000);

  it("at 300 px wide the panel never scrolls sideways", async () => {
    await runCommand(page, "View: Toggle Primary Side Bar Visibility");
    const frame = await arcadiaFrame(page, "agents");
    // The window narrowed until the panel's page is about 300 px wide.
    const width = async () => frame.evaluate(() => document.documentElement.clientWidth);
    let viewport = 420;
    await page.setViewportSize({ width: viewport, height: 900 });
    for (let i = 0; i < 6 && (await width()) > 305; i++) {
      viewport -= (await width()) - 300;
      await page.setViewportSize({ width: viewport, height: 900 });
      await page.waitForTimeout(300);
    }
    const seen = await frame.evaluate(() => ({
      width: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
    }));
    figures.narrowPanel = seen;
    await vs.screenshot("overview-3-narrow");
    expect(seen.width).toBeLessThanOrEqual(310);
    expect(seen.scrollWidth, "no sideways scroll").toBeLessThanOrEqual(seen.width);
    expect(seen.body).toBeLessThanOrEqual(seen.width);

    // Narrow, nothing is cut sideways either: every name whole, the header's total whole, and each
    // waiting prompt's subject and buttons inside the page's width (items 3 and 8 at 300 px).
    const narrow = await frame.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const within = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.left >= -0.5 && r.right <= width + 0.5;
      };
      const all = (selector: string) => Array.from(document.querySelectorAll(selector));
      const total = document.querySelector('[data-testid="usage-total"]');
      return {
        names: all('[data-testid="agent-line"] [data-testid="line-name"]').map((n) => ({
          name: n.textContent,
          whole: n.scrollWidth <= n.clientWidth && within(n),
        })),
        total: total && { text: total.textContent, whole: total.scrollWidth <= total.clientWidth && within(total) },
        prompts: all('[data-testid="agent-prompts"] .prompt-subject, [data-testid="agent-prompts"] vscode-button').map((el) => ({
          text: el.textContent?.trim(),
          within: within(el),
        })),
      };
    });
    figures.narrowWords = narrow;
    expect(narrow.names).toHaveLength(TOTAL);
    expect(narrow.names.filter((n) => !n.whole).map((n) => n.name)).toEqual([]);
    expect(narrow.total?.whole, `the header's total "${narrow.total?.text}" whole`).toBe(true);
    // #3's and #6's prompts still wait: a subject, Allow, Deny and more each.
    expect(narrow.prompts.filter((p) => p.text === "Allow")).toHaveLength(2);
    for (const item of narrow.prompts) expect(item.within, `"${item.text}" inside the page's width`).toBe(true);

    // Narrow, ✕ on the agent at work (its hung call runs) asks first, its question and both answers
    // inside the page's width, Keep focused: Enter keeps it (item 6 at 300 px).
    await frame.locator('[data-testid="agent-card"] [data-testid="close-agent"]').click();
    const confirm = frame.locator('[data-testid="agent-card"] [data-testid="close-confirm"]');
    await confirm.waitFor({ timeout: 10_000 });
    await pollUntil(
      () => frame.evaluate(() => document.activeElement?.getAttribute("data-testid") === "close-confirm-keep"),
      "Keep focused (what Enter presses)",
      5_000,
    );
    // On screen where the user looks, nothing to scroll to: inside the window and every box that
    // clips it, and a click at each answer's centre lands on it.
    const asked = await confirm.evaluate((el) => {
      const seen = (part: Element) => {
        const r = part.getBoundingClientRect();
        let unclipped =
          r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
        for (let box = part.parentElement; box; box = box.parentElement) {
          const style = getComputedStyle(box);
          if (style.overflowX === "visible" && style.overflowY === "visible") continue;
          const b = box.getBoundingClientRect();
          if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5) unclipped = false;
        }
        const hitEl = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { text: part.textContent?.trim(), shown: unclipped, hit: part === el || (hitEl !== null && (hitEl === part || part.contains(hitEl))) };
      };
      return [el, ...Array.from(el.querySelectorAll("vscode-button"))].map(seen);
    });
    figures.narrowCloseAsked = asked;
    await vs.screenshot("overview-3b-narrow-close-asks");
    expect(asked[0]?.text).toContain(`Close Agent #${TOTAL} while it works?`);
    for (const part of asked) expect(part.shown && part.hit, `"${part.text}" on screen where a click lands`).toBe(true);
    await page.keyboard.press("Enter");
    await confirm.waitFor({ state: "detached", timeout: 5_000 });
    await expect(cards().count()).resolves.toBe(TOTAL);

    // Narrow, the details scrolled to their last row still show their header whole (item 2 at 300 px).
    const narrowOver = await headerOverRows(frame);
    figures.narrowHeaderOverRows = narrowOver;
    for (const part of narrowOver.hits) expect(part.hit, `"${part.text}" in the header at 300 px (it hit ${part.hitWhat})`).toBe(true);

    // Narrow, the hung call's Complete still takes the click, and the click finishes it.
    const complete = await completeSeen(frame);
    figures.narrowComplete = complete;
    expect(complete.name).toBe(`Agent #${TOTAL}`);
    expect(complete.onScreen && complete.unclipped && complete.hit, `Complete at 300 px (it hit ${complete.hitWhat})`).toBe(true);
    await frame.locator('[data-testid="agent-card"] [data-testid="running-strip"] [data-testid="call-complete"]').click({ timeout: 10_000 });
    await pollUntil(
      async () => (await frame.locator('[data-testid="running-strip"] [data-testid="live-call"]').count()) === 0,
      "the hung call finished",
      20_000,
    );

    // Narrow, Allow on Agent #3's prompt: the details follow the answer to Agent #3 (item 1 at 300 px).
    await prompts("Agent #3", "permission").locator('[data-testid="prompt-allow"]').click();
    await pollUntil(
      async () => (await frame.locator('[data-testid="agent-card"] [data-testid="agent-name"]').textContent()) === "Agent #3",
      "the details on Agent #3, whose prompt was answered",
      15_000,
    );
    await vs.screenshot("overview-3c-narrow-answered");
  });
});

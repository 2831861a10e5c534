/// <reference lib="dom" />
/**
 * Fifty agents in the default window (issue 32's acceptance), in a real VS Code (code-server +
 * Chromium) with the packaged extension: ten real Claude Code CLIs at work (the scripted model), and
 * forty simulated CLIs (simulatedClaude.mjs: transcript, status file and hooks through the same doors
 * as the CLI, since fifty real ones do not fit a 2-core machine), four of them waiting on a permission
 * prompt that stays open, four idle. Every prompt's Allow and Deny are on screen where a click lands
 * (`elementFromPoint`) without scrolling the overview, and the agents that need the user are listed
 * first, also with the overview scrolled to its last line; narrowed to ~300 px wide, nothing scrolls
 * sideways and every prompt's question and buttons are inside the width.
 * The agents' terminals open in the editor area, so the panel stays in front.
 *
 * `ARCADIA_E2E_REAL=<n>` runs n real CLIs instead of ten (the rest simulated); `ARCADIA_E2E_VSIX=<file>`
 * another build (e.g. one with a weakened overview, to see this test fail).
 */
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";
import { type Role, setRole, writeDispatcher } from "./simulatedClaudes";
import { runCommand } from "./workbench";

const available = e2eAvailable("fifty agents in the default window (e2e)");
const TOTAL = 50;
const REAL = Number(process.env.ARCADIA_E2E_REAL ?? 10);
const VSIX = process.env.ARCADIA_E2E_VSIX;
/** Spread among the simulated ones, none first: "first" in the overview is then its doing, not the agents' order. */
const ASKING = [14, 27, 39, 50];
const IDLE = [12, 23, 34, 45];
const roleOf = (n: number): Role => (n <= REAL ? "real" : ASKING.includes(n) ? "asking" : IDLE.includes(n) ? "idle" : "working");
const name = (n: number) => `Agent #${n}`;

/** The real ones' prompt, on their command line (typing into terminals under load loses keys: tenBusyAgents). */
const PROMPT = "Slow work please";

/** Each prompt's Allow and Deny: on screen, inside every box that clips them, and what a click at their centre hits; the overview's scroll. */
async function buttonsSeen(frame: Frame) {
  return frame.evaluate(() => {
    const overview = document.querySelector(".overview");
    const buttons = Array.from(
      document.querySelectorAll('[data-testid="agent-prompts"] [data-testid="prompt-allow"], [data-testid="agent-prompts"] [data-testid="prompt-deny"]'),
    );
    return {
      overviewScrolled: overview?.scrollTop ?? -1,
      attentionScrolled: document.querySelector('[data-testid="attention"]')?.scrollTop ?? 0,
      buttons: buttons.map((button) => {
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
        return {
          agent: button.closest('[data-testid="agent-prompts"]')?.querySelector(".agent-prompts-name")?.textContent ?? "",
          text: button.textContent?.trim() ?? "",
          onScreen,
          unclipped,
          hit,
          hitWhat: hitEl ? `${hitEl.tagName} ${hitEl.getAttribute("data-testid") ?? hitEl.className}` : "nothing",
        };
      }),
    };
  });
}

describe.skipIf(!available)("fifty agents in the default window (real VS Code, ten real CLIs and forty simulated)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = { real: REAL, build: VSIX ?? "dist/arcadia.vsix" };
  const { panel, line, prompts, showPanel } = agentPanel(() => page, ".part.editor");

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "fifty",
      ...(VSIX ? { vsix: VSIX } : {}),
      wrapClaude: writeDispatcher,
      // The real ones' slow command runs unasked, and their own sandbox is off: none of them asks.
      settings: {
        "terminal.integrated.defaultLocation": "editor",
        "arcadia.agentSandbox": "off",
        "arcadia.extraArgs": [PROMPT, "--allowedTools", "Bash(python3:*)"],
      },
      script: (): Script => ({
        conversations: [
          {
            match: PROMPT,
            // Its own timeout: the Bash tool's default (2 min) would end it before the fiftieth agent is up.
            steps: [
              { tools: [{ name: "Bash", input: { command: `python3 -c "import time; time.sleep(3000)"`, description: "Work slowly", timeout: 600_000 } }] },
              { text: "Done." },
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
      await vs?.screenshot(`failed-fifty-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.editor").catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (fifty agents): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  const statusOf = async (n: number) =>
    (await line(name(n))
      .getAttribute("data-status")
      .catch(() => null)) ?? "";
  const idleCount = async () =>
    (await panel()
      .locator('[data-testid="idle-toggle"]')
      .textContent({ timeout: 1_000 })
      .catch(() => "")) ?? "";

  /** Opens agent #n with its role, and waits until its line shows what it does (an idle one: the idle count). */
  async function open(n: number): Promise<void> {
    const role = roleOf(n);
    setRole(win.root, role);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    // Up to 2 min: on two cores with the others up, a shell and a real CLI took over a minute to start.
    await page.locator(".part.editor .tab", { hasText: new RegExp(`Agent #${n}$`) }).waitFor({ timeout: 120_000 });
    await showPanel();
    if (role === "idle") {
      const idleBefore = IDLE.filter((i) => i < n).length + 1;
      await pollUntil(async () => (await idleCount()).startsWith(`${idleBefore} idle`), `${name(n)} idle`, 60_000);
    } else if (role === "asking") await prompts(name(n), "permission").waitFor({ timeout: 60_000 });
    else await pollUntil(async () => (await statusOf(n)) === "active", `${name(n)} at work`, role === "real" ? 180_000 : 60_000);
  }

  it("fifty agents, four asking: every Allow and Deny on screen where a click lands, nothing scrolled; the asking agents listed first", async () => {
    const started = Date.now();
    for (let n = 1; n <= TOTAL; n++) await open(n);
    figures.fiftyOpenedSeconds = Math.round((Date.now() - started) / 1000);
    await showPanel();
    const frame = await arcadiaFrame(page, "agents");
    // The real ones still at work (nothing ended them while the others started).
    for (let n = 1; n <= REAL; n++) expect(await statusOf(n), `${name(n)} (a real CLI) at work`).toBe("active");

    // As a user sees it who never scrolled: the overview at its top (a line the page brings into view may have moved it a few px).
    figures.scrolledByThePage = await frame.evaluate(() => document.querySelector(".overview")?.scrollTop);
    await frame.evaluate(() => document.querySelector(".overview")!.scrollTo(0, 0));
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    const seen = await buttonsSeen(frame);
    const order = await frame.evaluate(() => ({
      viewport: { width: window.innerWidth, height: window.innerHeight },
      lines: Array.from(document.querySelectorAll('[data-testid="agent-line"]')).map((l) => ({
        name: l.querySelector('[data-testid="line-name"]')?.textContent ?? "",
        status: l.getAttribute("data-status"),
      })),
      asking: Array.from(document.querySelectorAll('[data-testid="agent-prompts"] .agent-prompts-name')).map((n) => n.textContent),
      idle: document.querySelector('[data-testid="idle-toggle"]')?.textContent?.trim() ?? "",
    }));
    figures.viewport = order.viewport;
    figures.buttons = seen;
    await vs.screenshot("fifty-1-default-window");

    expect(order.viewport.height, "the default panel is short").toBeLessThan(320);
    const askingNames = ASKING.map(name);
    // Every agent is there: a line for each one not idle, the idle ones behind their count.
    expect(order.lines).toHaveLength(TOTAL - IDLE.length);
    expect(order.idle).toMatch(new RegExp(`^${IDLE.length} idle`));
    // Needs you first: the asking agents' lines lead the overview, in their order; then the ones at work.
    expect(order.lines.slice(0, ASKING.length)).toEqual(askingNames.map((n) => ({ name: n, status: "needsYou" })));
    expect(order.lines.slice(ASKING.length).every((l) => l.status === "active")).toBe(true);
    expect(order.asking).toEqual(askingNames);
    // Each asking agent's Allow and Deny, on screen where a click lands, with nothing scrolled.
    expect(seen.overviewScrolled).toBe(0);
    expect(seen.attentionScrolled).toBe(0);
    for (const agent of askingNames)
      expect(
        seen.buttons.filter((b) => b.agent === agent).map((b) => b.text),
        `${agent}'s buttons`,
      ).toEqual(["Allow", "Deny"]);
    for (const b of seen.buttons) expect(b.onScreen && b.unclipped && b.hit, `${b.agent}'s ${b.text} (a click there hit ${b.hitWhat})`).toBe(true);

    // Read down to the last line (the overview scrolled to its end): the prompts stay where a click lands.
    await frame.evaluate(() => {
      const overview = document.querySelector(".overview")!;
      overview.scrollTop = overview.scrollHeight;
    });
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    const scrolled = await buttonsSeen(frame);
    figures.scrolledButtons = scrolled;
    await vs.screenshot("fifty-1b-scrolled-to-the-last-line");
    expect(scrolled.overviewScrolled, "the overview scrolled down to its last line").toBeGreaterThan(0);
    expect(scrolled.buttons).toHaveLength(ASKING.length * 2);
    for (const b of scrolled.buttons)
      expect(b.onScreen && b.unclipped && b.hit, `scrolled: ${b.agent}'s ${b.text} (a click there hit ${b.hitWhat})`).toBe(true);
    await frame.evaluate(() => document.querySelector(".overview")!.scrollTo(0, 0));
  }, 1_800_000);

  it("narrowed to 300 px: nothing scrolls sideways, every prompt inside the width", async () => {
    await runCommand(page, "View: Toggle Primary Side Bar Visibility");
    const frame = await arcadiaFrame(page, "agents");
    // The window narrowed until the panel's page is about 300 px wide (as overview.e2e does).
    const width = async () => frame.evaluate(() => document.documentElement.clientWidth);
    let viewport = 420;
    await page.setViewportSize({ width: viewport, height: 900 });
    for (let i = 0; i < 6 && (await width()) > 305; i++) {
      viewport -= (await width()) - 300;
      await page.setViewportSize({ width: viewport, height: 900 });
      await page.waitForTimeout(300);
    }
    const sideways = await frame.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // What sticks out on the right, for the message (the page's own scroll width says whether it scrolls).
      const over = Array.from(document.querySelectorAll("body *"))
        .filter((el) => el.getBoundingClientRect().right > width + 0.5 && el.getBoundingClientRect().width > 0)
        .slice(0, 5)
        .map((el) => `${el.tagName} ${el.getAttribute("data-testid") ?? el.className}`);
      return { width, scrollWidth: document.documentElement.scrollWidth, body: document.body.scrollWidth, over };
    });
    figures.narrow = sideways;
    await vs.screenshot("fifty-2-narrow");
    expect(sideways.width).toBeLessThanOrEqual(310);
    expect(sideways.scrollWidth, `no sideways scroll (${sideways.over.join(", ")})`).toBeLessThanOrEqual(sideways.width);
    expect(sideways.body, "the body no wider than the page").toBeLessThanOrEqual(sideways.width);

    // Each prompt's question and buttons inside the page's width (wrapped under the name, not cut).
    const within = await frame.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return Array.from(document.querySelectorAll('[data-testid="agent-prompts"] .prompt-subject, [data-testid="agent-prompts"] vscode-button')).map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent?.trim(), within: r.width > 0 && r.left >= -0.5 && r.right <= width + 0.5 };
      });
    });
    figures.narrowPrompts = within;
    expect(within.filter((p) => p.text === "Allow")).toHaveLength(ASKING.length);
    for (const item of within) expect(item.within, `"${item.text}" inside the page's width`).toBe(true);
  }, 120_000);
});

/**
 * What the agent scenarios do with the workbench, as a person would: find the panel, its agents'
 * lines, their prompts and one agent's details,
 * bring the panel to the front, wait for Claude Code's prompt in a terminal, type into it.
 * `terminalPart`: where the terminal is shown by default ("" anywhere, ".part.panel", ".part.editor").
 */
import type { FrameLocator, Page } from "playwright-core";
import { arcadiaPlace, arcadiaViewFrame, pollUntil, revealArcadiaView, showInSideBar, terminalText } from "./harness";

export function agentPanel(page: () => Page, terminalPart = "") {
  const panel = (): FrameLocator => arcadiaViewFrame(page());
  /** Every agent's line in the overview (one per agent: what counts agents). */
  const cards = () => panel().locator('[data-testid="agent-line"]');
  /** An agent's overview line by the name it shows: its status (data-status, aria-current when its terminal is in front). */
  const line = (name: string) =>
    panel()
      .locator('[data-testid="agent-line"]')
      .filter({ has: panel().getByTestId("line-name").getByText(name, { exact: true }) });
  /** An agent's details (its card below the overview): there when they show (see `details`). */
  const card = (name: string) =>
    panel()
      .locator('[data-testid="agent-card"]')
      .filter({ has: panel().getByTestId("agent-name").getByText(name, { exact: true }) });
  /** An agent's prompts under the overview, each with its buttons (of one kind: "permission", "command"…). */
  const prompts = (name: string, kind?: string) =>
    panel()
      .locator('[data-testid="agent-prompts"]')
      .filter({ has: panel().locator(".agent-prompts-name").getByText(name, { exact: true }) })
      .locator(`[data-testid="prompt"]${kind ? `[data-kind="${kind}"]` : ""}`);

  /** Shows an agent's details (its line's chevron) unless they show already; returns them. */
  async function details(name: string) {
    if ((await card(name).count()) === 0) await line(name).locator('[data-testid="show-details"]').click();
    await card(name).waitFor({ timeout: 10_000 });
    return card(name);
  }

  /** Brings the panel to the front as a person does: a click on its "Arcadia" tab when the bottom
   * panel is open (under ten busy CLIs the command palette took over 30 s to list a command in CI),
   * else its palette command. */
  async function showPanel(): Promise<void> {
    // In the side bar (ARCADIA_E2E_PLACE=sidebar) the view stays in front whatever the panel shows.
    if (arcadiaPlace() === "sidebar") {
      await showInSideBar(page());
      await panel().locator("#root").waitFor({ state: "visible", timeout: 30_000 });
      return;
    }
    const tab = page().locator(".part.panel .composite-bar .action-item", { hasText: /^Arcadia$/ });
    if (await tab.isVisible().catch(() => false)) {
      const inFront = (await tab.getAttribute("class"))?.includes("checked") ?? false;
      if (!inFront) await tab.click({ timeout: 10_000 });
      // Its tab already in front, the page is there: with ten busy CLIs on two cores it took over
      // 5 s to answer, and the palette (the fallback) could not list a command within a minute (CI).
      const shown = await panel()
        .locator("#root")
        .waitFor({ state: "visible", timeout: inFront ? 30_000 : 5_000 })
        .then(
          () => true,
          () => false,
        );
      if (shown) return;
    }
    // Focus left inside a webview or a terminal can leave the command palette unusable (inert):
    // click the empty editor area first, as a user would.
    await page()
      .locator(".part.editor")
      .click({ position: { x: 20, y: 20 } });
    await revealArcadiaView(page(), "arcadia.panelView");
  }

  /** The CLI is idle at its prompt: its footer offers shortcuts, and nothing can be interrupted. */
  async function waitForClaudePrompt(within = terminalPart): Promise<void> {
    await pollUntil(
      async () => {
        const text = await terminalText(page(), within);
        return text.includes("for shortcuts") && !text.includes("esc to interrupt");
      },
      "the Claude Code prompt in the terminal",
      30_000,
    );
  }

  /** What sits in the CLI's input box (between its last two rules), or undefined when none shows. */
  async function promptInput(within: string): Promise<string | undefined> {
    const lines = (await terminalText(page(), within)).split("\n");
    const rules = lines.flatMap((l, i) => (/^─{10,}$/.test(l.trim()) ? [i] : []));
    if (rules.length < 2) return undefined;
    const [top, bottom] = rules.slice(-2) as [number, number];
    const box = lines.slice(top + 1, bottom).join(" ");
    return box.replace(/^\s*❯/, "").trim();
  }

  /** Types at the CLI's prompt and submits. An Enter the CLI drops (it was still re-rendering, as
   * seen in CI: the text left in the box, "manual mode on" below it), or that went elsewhere
   * because focus moved, is pressed again in the terminal. */
  async function typeInTerminal(text: string, within = terminalPart): Promise<void> {
    await page().locator(`${within} .terminal-wrapper.active .xterm`.trim()).click();
    await page().keyboard.type(text);
    await typeWhatWasLost(text, within);
    await page().waitForTimeout(200); // the CLI reads a paste-like burst and Enter apart
    await page().keyboard.press("Enter");
    for (let attempt = 0; attempt < 2; attempt++) {
      const deadline = Date.now() + 2_500;
      let left = await promptInput(within);
      while (left && text.startsWith(left) && Date.now() < deadline) {
        await page().waitForTimeout(250);
        left = await promptInput(within);
      }
      // Taken: the box is empty or gone (the CLI at work). Still holding the text, or a part of it
      // (keys and Enter lost under load: "Task 11 ple" seen): the rest, then Enter, again.
      if (!left || !text.startsWith(left)) return;
      await page().locator(`${within} .terminal-wrapper.active .xterm`.trim()).click();
      if (left !== text) await page().keyboard.type(text.slice(left.length));
      await page().waitForTimeout(200);
      await page().keyboard.press("Enter");
    }
  }

  /**
   * With ten CLIs at work on two cores, a CLI re-rendering dropped the last keys of a burst ("Task
   * 10 pl" for "Task 10 please"): once its box holds a part of the text that stays so for a
   * second, the rest is typed again. A box that shows nothing yet is waited for (up to 10 s).
   */
  async function typeWhatWasLost(text: string, within: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const deadline = Date.now() + 10_000;
      let box = await promptInput(within);
      let same = Date.now();
      while (box !== text && Date.now() < deadline && !(box && Date.now() - same > 1_000)) {
        await page().waitForTimeout(250);
        const now = await promptInput(within);
        if (now !== box) [box, same] = [now, Date.now()];
      }
      if (!box || box === text || !text.startsWith(box)) return;
      await page().locator(`${within} .terminal-wrapper.active .xterm`.trim()).click();
      await page().keyboard.type(text.slice(box.length));
    }
  }

  /**
   * The agent took its prompt: its line leaves idle. A claude still starting (its MCP servers
   * connecting) can keep the text in its box through the first Enters, and on a loaded machine it
   * once read the Enter as part of the text: the terminal again, and Enter, up to three times.
   */
  async function promptTaken(name: string, within = terminalPart): Promise<void> {
    const working = async () =>
      ["active", "needsYou"].includes(
        (await line(name)
          .getAttribute("data-status")
          .catch(() => null)) ?? "",
      );
    for (let attempt = 0; attempt < 3; attempt++) {
      if (
        await pollUntil(working, `${name} at work`, 10_000).then(
          () => true,
          () => false,
        )
      )
        return;
      await page().locator(`${within} .terminal-wrapper.active .xterm`.trim()).click();
      await page().keyboard.press("Enter");
    }
    throw new Error(`${name} never took its prompt`);
  }

  return { panel, cards, line, card, details, prompts, showPanel, waitForClaudePrompt, typeInTerminal, promptTaken };
}

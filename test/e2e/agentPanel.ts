/**
 * What the agent scenarios do with the workbench, as a person would: find the panel and its cards,
 * bring the panel to the front, wait for Claude Code's prompt in a terminal, type into it.
 * `terminalPart`: where the terminal is shown by default ("" anywhere, ".part.panel", ".part.editor").
 */
import type { FrameLocator, Page } from "playwright-core";
import { pollUntil, revealArcadiaView, terminalText, webviewFrame } from "./harness";

export function agentPanel(page: () => Page, terminalPart = "") {
  const panel = (): FrameLocator => webviewFrame(page());
  const cards = () => panel().locator('[data-testid="agent-card"]');
  /** A card by the name it shows. */
  const card = (name: string) => cards().filter({ hasText: name });

  // Focus left inside a webview or a terminal can leave the command palette unusable (inert):
  // click the empty editor area first, as a user would.
  async function showPanel(): Promise<void> {
    await page().locator(".part.editor").click({ position: { x: 20, y: 20 } });
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

  async function typeInTerminal(text: string, within = terminalPart): Promise<void> {
    await page().locator(`${within} .terminal-wrapper.active .xterm`.trim()).click();
    await page().keyboard.type(text);
    await page().waitForTimeout(200); // the CLI reads a paste-like burst and Enter apart
    await page().keyboard.press("Enter");
  }

  return { panel, cards, card, showPanel, waitForClaudePrompt, typeInTerminal };
}

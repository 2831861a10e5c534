/// <reference lib="dom" />
/**
 * Claude Code's own sandbox for an agent Arcadia opens, in a real VS Code (code-server + Chromium)
 * with the real CLI in its terminal and the scripted model, in one loopback-only namespace
 * (`arcadia.agentSandbox: "on"`; bubblewrap and socat installed, as .ci/run does):
 * - the agent's line and card say "sandboxed";
 * - a shell command that ran in the sandbox with nobody asked is marked so on its row;
 * - a command that asks to run outside the sandbox asks on the card, with its reason, and Allow
 *   there runs it.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { writeClaudeWrapper } from "../rig/claudeWrapper.js";
import { createHome } from "../rig/home.js";
import { startModelServer, type ModelServer } from "../rig/model-server.js";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, startVsCode, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";

const available = e2eAvailable("the agents' sandbox in VS Code (e2e)");

const INSIDE = "made-in-the-sandbox.txt";
const OUTSIDE = "made-outside-the-sandbox.txt";
const REASON = "Create a file with the sandbox off";

const script: Script = {
  conversations: [
    // `touch` is not read-only: unsandboxed, the CLI would ask first.
    {
      match: "Touch a file in the sandbox",
      steps: [{ tools: [{ name: "Bash", input: { command: `touch ${INSIDE}`, description: "Create a file" } }] }, { text: "Touched inside." }],
    },
    {
      match: "Touch a file outside the sandbox",
      steps: [
        { tools: [{ name: "Bash", input: { command: `touch ${OUTSIDE}`, description: REASON, dangerouslyDisableSandbox: true } }] },
        { text: "Touched outside." },
      ],
    },
  ],
  fallbackText: "OK.",
};

describe.skipIf(!available)("the agents' sandbox in a real VS Code", () => {
  let root: string;
  let workspace: string;
  let model: ModelServer;
  let vs: VsCode;
  let page: Page;
  const { panel, showPanel, waitForClaudePrompt, typeInTerminal, line, details, prompts } = agentPanel(() => page, ".part.panel");

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "agent-sandbox-")));
    workspace = join(root, "workspace");
    const home = join(root, "home");
    mkdirSync(workspace, { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(workspace, "README.md"), "# Sample workspace\n");
    createHome(workspace, { home });
    model = await startModelServer({ script });
    const claude = writeClaudeWrapper(join(root, "bin"), { modelUrl: model.url });
    vs = await startVsCode({ workspace, extraEnv: { HOME: home }, settings: { "arcadia.claudePath": claude, "arcadia.agentSandbox": "on" } });
    page = vs.page;
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-sandbox-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
    });
  });

  /** A click on the agent's line brings its terminal to the front (the panel shows it instead of Arcadia). */
  async function focusTerminal(): Promise<void> {
    await line("Agent #1").locator('[role="button"]').first().click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 10_000 });
  }

  afterAll(async () => {
    await vs?.close();
    await model?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("a sandboxed agent's line and card say so; a command it ran in the sandbox unasked is marked on its row", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor();
    await waitForClaudePrompt();
    await showPanel();
    await line("Agent #1").locator('[data-testid="sandbox-tag"]').waitFor({ timeout: 20_000 });
    await expect(line("Agent #1").locator('[data-testid="sandbox-tag"]').textContent()).resolves.toBe("sandboxed");

    await focusTerminal();
    await typeInTerminal("Touch a file in the sandbox");
    await pollUntil(() => existsSync(join(workspace, INSIDE)), `${INSIDE} in the workspace`, 30_000);
    await showPanel();
    const row = (await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: `touch ${INSIDE}` });
    await pollUntil(async () => (await row.getAttribute("data-outcome")) === "done", "the row done", 20_000);
    await expect(row.locator('[data-testid="tool-sandbox"]').getAttribute("data-sandbox")).resolves.toBe("unasked");
    await expect((await details("Agent #1")).locator('[data-testid="sandbox-tag"]').count()).resolves.toBe(1);
    // Nobody was asked: no prompt, and the terminal never showed one.
    await expect(prompts("Agent #1").count()).resolves.toBe(0);
    await expect(terminalText(page, ".part.panel")).resolves.not.toContain("Do you want");
    await vs.screenshot("sandbox-1-unasked-row");
  });

  it("a request to run outside the sandbox asks on the card with its reason; Allow there runs it", async () => {
    await focusTerminal();
    await waitForClaudePrompt();
    await typeInTerminal("/clear");
    await waitForClaudePrompt();
    await typeInTerminal("Touch a file outside the sandbox");
    await showPanel();
    const prompt = prompts("Agent #1", "permission");
    await prompt.waitFor({ timeout: 30_000 });
    await expect(prompt.locator('[data-testid="prompt-reason"]').textContent()).resolves.toContain(REASON);
    await expect(prompt.locator('[data-testid="prompt-reason"]').textContent()).resolves.toContain("outside Claude Code's sandbox");
    expect(existsSync(join(workspace, OUTSIDE))).toBe(false);
    await vs.screenshot("sandbox-2-asked-to-leave");
    const allow = prompt.locator('[data-testid="prompt-allow"]');
    await pollUntil(async () => (await allow.getAttribute("disabled")) === null, "Allow enabled", 10_000);
    await allow.click();
    await pollUntil(() => existsSync(join(workspace, OUTSIDE)), `${OUTSIDE} in the workspace`, 20_000);
    const row = (await details("Agent #1")).locator('[data-testid="tool-row"]', { hasText: `touch ${OUTSIDE}` });
    await expect(row.locator('[data-testid="tool-sandbox"]').getAttribute("data-sandbox")).resolves.toBe("askedToLeave");
    await pollUntil(async () => (await prompts("Agent #1").count()) === 0, "the prompt to go", 10_000);
  });
});

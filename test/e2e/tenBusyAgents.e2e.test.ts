/// <reference lib="dom" />
/**
 * The panel with ten busy agents, in a real VS Code (code-server + Chromium) with ten real Claude
 * Code CLIs and the scripted model: every agent runs a loop of short shell commands at once (about
 * four tool calls a second in all, on two cores), and the panel's page times each message it gets
 * from the extension to the end of the frame that shows it (a listener in the page: arrival, then
 * the next animation frame, then the first moment after it). Prints p50 / p99 / max and how many
 * messages came. Every agent's line must show it at work meanwhile, and each line's tool count must
 * reach what its terminal did.
 *
 * `ARCADIA_E2E_VSIX=<file.vsix>` runs the same scenario against another build (e.g. the one before
 * a change, to print both); without it, the current `dist/arcadia.vsix`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script, Step } from "../rig/script.js";
import { e2eAvailable, pollUntil, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";
import { percentile } from "../../bench/percentile";

const available = e2eAvailable("ten busy agents in the panel (e2e)");
const AGENTS = 10;
/** Tool calls per agent once they all go: 10 agents × 12 calls of ~2.3 s each ≈ 4 a second for ~30 s. */
const CALLS = 12;
const GO = "go.txt";
const VSIX = process.env.ARCADIA_E2E_VSIX;

/** Every agent's prompt, given on its command line: typing into ten terminals at once lost keys (see below). */
const PROMPT = "Busy work please";
const busySteps: Step[] = [
  // Waits, one long call, until every agent is started: then they all work at once. Its own timeout:
  // the Bash tool's default (2 min) can pass before the tenth agent is up on a loaded machine.
  {
    tools: [{ name: "Bash", input: { command: `until [ -f ${GO} ]; do sleep 0.2; done; echo go`, description: "Wait for the others", timeout: 600_000 } }],
  },
  ...Array.from({ length: CALLS }, (_, i): Step => ({
    tools: [{ name: "Bash", input: { command: `sleep 2.${i % 10} && echo step ${i + 1}`, description: `Busy step ${i + 1}` } }],
  })),
  { text: "This agent is done." },
];

describe.skipIf(!available)("ten busy agents: each message from the extension to the end of its frame (real VS Code, real CLI)", () => {
  let win: AgentWindow;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = { build: VSIX ?? "dist/arcadia.vsix" };
  const { panel, cards, line, showPanel } = agentPanel(() => page, ".part.editor");

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "ten-busy",
      ...(VSIX ? { vsix: VSIX } : {}),
      // Terminals in the editor area keep the panel in front; every shell command allowed, and the
      // agents' own sandbox off, so no prompt stops an agent (an older build knows neither setting's absence).
      settings: {
        "terminal.integrated.defaultLocation": "editor",
        "arcadia.agentSandbox": "off",
        "arcadia.extraArgs": [PROMPT, "--allowedTools", "Bash"],
      },
      script: (): Script => ({
        conversations: [{ match: PROMPT, steps: busySteps }],
        fallbackText: "OK.",
      }),
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-ten-busy-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (ten busy agents): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  const statusOf = async (n: number) =>
    (await line(`Agent #${n}`)
      .getAttribute("data-status")
      .catch(() => null)) ?? "";

  it("ten agents at work at once: every line shows it, and the panel keeps up (message → end of frame printed)", async () => {
    // Each agent starts on its prompt (the command line's): typing into the seventh to tenth
    // terminal while the others ran their tools lost keys after the first few, with this build
    // and the one before alike, so nothing here is typed.
    const tab = (n: number) => page.locator(".part.editor .tab", { hasText: new RegExp(`Agent #${n}$`) });
    for (let n = 1; n <= AGENTS; n++) {
      await showPanel();
      await panel().locator('[data-testid="open-claude"]').click();
      // Up to 2 min each: on two cores with the others' CLIs up, a shell and its CLI took over a minute to start.
      await tab(n).waitFor({ timeout: 120_000 });
      await pollUntil(async () => (await statusOf(n)) === "active", `Agent #${n} at work (waiting for the others)`, 120_000);
    }
    await showPanel();
    await pollUntil(async () => (await cards().count()) === AGENTS, "ten lines", 30_000);
    const frame = await arcadiaFrame(page, "agents");
    await frame.evaluate(() => {
      const timings: number[] = [];
      (window as unknown as { __arcadiaFrameTimings: number[] }).__arcadiaFrameTimings = timings;
      // Capture: before the page's own listener, so the arrival is the message's, not the page's handling.
      window.addEventListener(
        "message",
        () => {
          const arrived = performance.now();
          requestAnimationFrame(() => setTimeout(() => timings.push(performance.now() - arrived), 0));
        },
        true,
      );
    });

    const started = Date.now();
    writeFileSync(join(win.workspace, GO), "go\n");
    // All ten work at once; sample that every line says so while they do. Done: no line working
    // (at nine agents and more the overview folds idle ones into "10 idle", so they are not counted by line).
    const working = () => frame.locator('[data-testid="agent-line"][data-status="active"]').count();
    let everyoneWorking = 0;
    await pollUntil(
      async () => {
        const now = await working();
        if (now === AGENTS) everyoneWorking++;
        return now === 0;
      },
      "every agent done with its loop",
      240_000,
      500,
    );
    figures.loopSeconds = Math.round((Date.now() - started) / 1000);
    const timings = await frame.evaluate(() => (window as unknown as { __arcadiaFrameTimings: number[] }).__arcadiaFrameTimings.slice());
    const sorted = [...timings].sort((a, b) => a - b);
    figures.messages = timings.length;
    figures.messageToFrameEndMs = {
      p50: Math.round(percentile(sorted, 50)),
      p99: Math.round(percentile(sorted, 99)),
      max: Math.round(sorted.at(-1) ?? 0),
    };
    figures.samplesWithAllTenWorking = everyoneWorking;
    console.log(`ten busy agents (${figures.build}): ${timings.length} messages, message → end of frame ${JSON.stringify(figures.messageToFrameEndMs)} ms`);
    await vs.screenshot("ten-busy-agents-done");

    // The work was seen: all ten at once, and each agent's 13 calls ran (its terminal says the last step).
    expect(everyoneWorking, "samples (every 0.5 s) with all ten lines working").toBeGreaterThan(0);
    expect(timings.length, "messages from the extension while they worked").toBeGreaterThanOrEqual(AGENTS);
    for (let n = 1; n <= AGENTS; n++) {
      await tab(n).click();
      await pollUntil(async () => (await terminalText(page, ".part.editor")).includes("This agent is done."), `Agent #${n}'s terminal says it is done`, 20_000);
    }
  }, 900_000);
});

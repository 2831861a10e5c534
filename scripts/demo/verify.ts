// Checks a running demo the way a person would use it, with headless Debian Chromium (the e2e
// harness's flags: no background traffic; it only loads the demo's 127.0.0.1 URL):
//   node --import tsx scripts/demo/verify.ts http://127.0.0.1:<port> [prompt]
// Opens the Arcadia panel, clicks "Open Claude Code", types a prompt in the terminal, waits for
// the card to show a tool and the helper, answers the permission prompt and Arcadia's command
// approval on the card, Completes the long command, then waits for "Idle".
// Screenshots: test-output/demo/.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../../test/e2e/browser";
import { repoRoot } from "../../test/e2e/paths";
import { pollUntil } from "../../test/support/waitFor";
import { runCommand, terminalText, waitForWorkbench, webviewFrame } from "../../test/e2e/workbench";

const url = process.argv[2];
const prompt = process.argv[3] ?? "What does this project do?";
if (!url) {
  process.stderr.write("usage: verify.ts http://127.0.0.1:<port> [prompt]\n");
  process.exit(2);
}

async function main(target: string): Promise<void> {
  const out = join(repoRoot, "test-output", "demo");
  mkdirSync(out, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "arcadia-demo-verify-"));
  // The browser's own HOME: its caches stay out of the real one.
  const browser = await launchBrowser(profile, { PATH: process.env.PATH ?? "", HOME: profile });
  const { page } = browser;
  const shot = (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const step = (what: string) => console.log(`verify: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const t0 = Date.now();
  try {
    await waitForWorkbench(page, target);
    step("workbench loaded");
    const panel = webviewFrame(page);
    // The demo opens the panel itself (demo/extension); the palette is what a person would use.
    const opened = await panel.getByTestId("open-claude").waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (!opened) {
      step("the panel did not open by itself; opening it from the palette");
      await runCommand(page, "Arcadia: Focus on Agents View");
    }
    step("the Arcadia panel is open");
    await shot("1-start");
    await panel.getByTestId("open-claude").click();
    step('clicked "Open Claude Code"');
    await pollUntil(async () => /^\s*❯\s*$/m.test(await terminalText(page)), "the Claude Code prompt in the terminal", 30_000);
    step("claude is ready in the terminal");
    await page.locator(".terminal-wrapper.active .xterm").click();
    await page.keyboard.type(prompt);
    await page.waitForTimeout(200); // the CLI takes text and Enter in one read as a paste
    await page.keyboard.press("Enter");
    step(`typed "${prompt}"`);
    // Terminals open as editor tabs in the demo, so the panel should still be in view.
    if (!(await panel.getByTestId("agent-card").isVisible().catch(() => false))) {
      step("the panel is hidden; focusing it");
      await runCommand(page, "Arcadia: Focus on Agents View");
    }
    const card = panel.getByTestId("agent-card").first();
    await card.locator('[data-testid="tool-row"]').first().waitFor({ timeout: 30_000 });
    step(`card shows a tool: ${await card.locator('[data-testid="tool-row"]').first().textContent()}`);
    await shot("2-tool");
    // The helper sub-agent runs for a few seconds: its row is the running state to see.
    await card.locator('[data-testid="tool-row"][data-outcome="running"]', { hasText: "Subtask: Check the code" }).waitFor({ timeout: 30_000 });
    step("card shows the helper sub-agent running");
    await shot("3-helper");
    // Claude Code's own permission prompt, answered on the card.
    await card.locator('[data-testid="prompt"][data-kind="permission"]').waitFor({ timeout: 30_000 });
    step(`card says: ${await card.getByTestId("agent-status").textContent()}; clicking Allow`);
    await shot("4-permission");
    await card.locator('[data-testid="prompt"][data-kind="permission"] [data-testid="prompt-allow"]').click();
    // Arcadia's execute_command: its own approval (the command chains), then Complete.
    await card.locator('[data-testid="prompt"][data-kind="command"] [data-testid="prompt-allow"]').waitFor({ timeout: 30_000 });
    await card.locator('[data-testid="prompt"][data-kind="command"] [data-testid="prompt-allow"]').click();
    step("allowed the long command");
    await card.getByTestId("live-call").waitFor({ timeout: 30_000 });
    await page.waitForTimeout(3000);
    await shot("5-long-command");
    await card.getByTestId("call-complete").click();
    step("clicked Complete on the long command");
    await pollUntil(async () => (await card.getAttribute("data-status")) === "waiting", "the card to say Idle", 60_000);
    step(`card status: ${await card.getByTestId("agent-status").textContent()}`);
    await pollUntil(async () => /\[demo model\] Done\./.test(await terminalText(page)), "the demo model's summary in the terminal", 10_000).catch(() => undefined);
    await shot("6-waiting");
    console.log(`verify: ok; screenshots in ${out}`);
  } catch (err) {
    await shot("failure").catch(() => undefined);
    throw err;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main(url).catch((err: unknown) => {
  console.error(`verify: FAILED: ${(err as Error).message}`);
  process.exit(1);
});

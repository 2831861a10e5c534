/**
 * The packaged extension in a real VS Code (code-server) driven by headless Chromium, inside a
 * loopback-only network namespace: it activates, logs to its "Arcadia" channel, and "Arcadia: Show
 * Log" from the command palette shows that log in the Output panel, and its panel's webview loads.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { e2eAvailable, revealArcadiaView, runCommand, startVsCode, webviewFrame, type VsCode } from "./harness";

const available = e2eAvailable("Arcadia in VS Code (e2e smoke)");

describe.skipIf(!available)("Arcadia in VS Code", () => {
  let workspace: string;
  let vs: VsCode | undefined;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), "workspace-")));
    mkdirSync(join(workspace, "src"));
    writeFileSync(join(workspace, "README.md"), "# Sample workspace\n");
    writeFileSync(join(workspace, "src", "hello.ts"), 'export const hello = "world";\n');
    vs = await startVsCode({ workspace });
  });

  // A failed step leaves a picture of the window and says which panel tab was in front.
  beforeEach((context) => {
    onTestFailed(async () => {
      const name = context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
      await vs?.screenshot(`failed-${name}`).catch(() => undefined);
      const tabs = await vs?.page
        .locator(".part.panel .composite-bar .action-item")
        .evaluateAll((items) =>
          items.map((item) => `${item.textContent?.trim() || item.getAttribute("aria-label")}${item.classList.contains("checked") ? " (in front)" : ""}`),
        )
        .catch(() => []);
      console.log(`Panel tabs at the failure of "${context.task.name}": ${JSON.stringify(tabs)}\nArcadia log:\n${vs?.extensionLog()}`);
    });
  });

  afterAll(async () => {
    await vs?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('activates and says so in its "Arcadia" log', async () => {
    const log = await vs!.waitForExtensionLog("Arcadia activated");
    expect(log).toMatch(/\[info\] Arcadia activated/);
  });

  it('shows its log in the Output panel on "Arcadia: Show Log"', async () => {
    const { page } = vs!;
    await runCommand(page, "Arcadia: Show Log");
    const panel = page.locator(".part.panel");
    await panel.locator(".composite-bar .action-item.checked", { hasText: "Output" }).waitFor({ state: "visible" });
    // The Output view is a read-only editor showing the selected channel's log.
    await panel.locator(".view-lines", { hasText: "Arcadia activated" }).waitFor({ state: "visible" });
    await vs!.screenshot("smoke-show-log");
  });

  it("renders its panel's webview", async () => {
    const { page } = vs!;
    await revealArcadiaView(page, "arcadia.panelView");
    // Any element in the page: a blank webview means the script did not load (CSP, wrong path).
    await webviewFrame(page).locator("body *").locator("visible=true").first().waitFor();
    await vs!.screenshot("smoke-panel");
  });
});

/**
 * Reaching into the running workbench from a test: the Arcadia panel's own page (to watch it from
 * inside, to the millisecond), and settings changed while VS Code runs. code-server does not notice
 * a user settings file changed behind its back; the workspace's `.vscode/settings.json` it does
 * (Arcadia logs each change, which a test can wait for).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { pollUntil } from "../support/waitFor";

/** The panel's content frame (the page inside the webview). */
export function panelContentFrame(page: Page, timeoutMs = 10_000): Promise<Frame> {
  return pollUntil(
    () => page.frames().find((f) => f.url().includes("/pre/fake.html") && f.parentFrame()?.url().includes("extensionId=arcadia-dev.arcadia")),
    "the panel's content frame",
    timeoutMs,
  );
}

/** Changes one setting of the running VS Code, in the workspace's settings (they win over the user's). */
export function setWorkspaceSetting(workspace: string, key: string, value: unknown): void {
  const dir = join(workspace, ".vscode");
  const file = join(dir, "settings.json");
  mkdirSync(dir, { recursive: true });
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  settings[key] = value;
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/**
 * The content frame of one of Arcadia's pages by what it shows (`<body data-view>`): "agents" (the
 * panel), "sessions" (the Sessions view), "session" (a session's reader), "compare" (a race's
 * tab) or "queue" (the queue tab). Several can be open at once, so a frame is told by its page, not its place.
 */
export function arcadiaFrame(page: Page, view: "agents" | "sessions" | "session" | "compare" | "queue", timeoutMs = 15_000): Promise<Frame> {
  return pollUntil(
    async () => {
      for (const frame of page.frames()) {
        if (!frame.url().includes("/pre/fake.html") || !frame.parentFrame()?.url().includes("extensionId=arcadia-dev.arcadia")) continue;
        const shown = await frame.evaluate(() => document.body?.dataset.view).catch(() => undefined);
        if (shown === view) return frame;
      }
      return undefined;
    },
    `Arcadia's ${view} page`,
    timeoutMs,
  );
}

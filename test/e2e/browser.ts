// Headless Debian Chromium driven by playwright-core (no browser download: executablePath), with a
// fresh profile under the run's folder.
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { e2ePaths } from "./paths";

/** The reference flags (shared/reference/vscode-e2e.md); `--headless` comes from `headless: true`.
 * They keep Chromium from phoning home (sync, component updates, background requests) and from
 * needing a GPU or a sandbox it cannot have as root in a container. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(root: string, env: Record<string, string>): Promise<Browser> {
  const context = await chromium.launchPersistentContext(join(root, "chromium-profile"), {
    executablePath: e2ePaths.chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    env,
    // A fixed size, so screenshots and layouts are the same on every machine.
    viewport: { width: 1400, height: 900 },
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    // Playwright kills the browser's process group itself; the bound keeps a hung close from
    // hanging the test (the run's process sweep is the backstop).
    close: () => Promise.race([context.close(), new Promise<void>((r) => setTimeout(r, 10_000).unref())]).catch(() => undefined),
  };
}

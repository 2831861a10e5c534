// startVsCode(): the Arcadia extension (dist/arcadia.vsix) in a real VS Code (code-server), shown
// by a real headless Chromium, both inside the loopback-only network namespace the test process
// runs in (scripts/e2e/run-in-netns.sh). Every instance gets its own throwaway folders.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, type Browser } from "./browser";
import { codeServerDirs, codeServerEnv, installExtension, startCodeServer, writeSettings, type CodeServer } from "./codeServer";
import { requireIsolation } from "./netns";
import { e2ePaths, missingTools, repoRoot } from "./paths";
import { pollUntil } from "../support/waitFor";
import { arcadiaPlace, placeArcadia, showInSideBar } from "./place";
import { revealView, waitForWorkbench, type ExtensionManifest } from "./workbench";

export { focusViewTitle, reloadWindow, runCommand, terminalText, waitForWorkbench, webviewFrame } from "./workbench";
export { isolation } from "./netns";
export { arcadiaInFront, arcadiaPlace, arcadiaViewFrame, showInSideBar, sidebarPage, widthProblems, widthSeen } from "./place";
export { e2eAvailable } from "./available";
export { pollUntil } from "../support/waitFor";
export { e2ePaths, missingTools } from "./paths";

export const ARCADIA_EXTENSION_ID = "arcadia-dev.arcadia";

/** The extension's manifest (the repo's package.json, which is what the .vsix carries). */
function arcadiaManifest(): ExtensionManifest {
  return JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as ExtensionManifest;
}

/** Shows and focuses one of Arcadia's views ("arcadia.panelView") through the command palette. */
export function revealArcadiaView(page: Page, viewId: string): Promise<void> {
  // Moved into the side bar (ARCADIA_E2E_PLACE=sidebar), the view has no palette command of that name.
  if (arcadiaPlace() === "sidebar" && viewId === "arcadia.panelView") return showInSideBar(page);
  return revealView(page, arcadiaManifest(), viewId);
}

export interface StartOptions {
  /** Folder opened as the workspace. */
  workspace: string;
  /** User settings, on top of the deterministic ones (codeServer.ts). */
  settings?: Record<string, unknown>;
  /** Environment of code-server, hence of the extension host and the terminals (e.g. HOME,
   * ANTHROPIC_BASE_URL for the CLI). */
  extraEnv?: Record<string, string>;
  /** Defaults to dist/arcadia.vsix. */
  vsix?: string;
  /** More extensions installed after Arcadia (the demo's, for the story). */
  moreVsix?: string[];
}

export interface VsCode {
  page: Page;
  /** Where code-server listens (http://127.0.0.1:<port>). */
  url: string;
  userDataDir: string;
  /** `<user-data-dir>/logs`: one `<timestamp>/` folder per server start; extension host logs in
   * `<timestamp>/exthost<n>/<publisher>.<name>/`. */
  logsDir: string;
  /** Everything the extension wrote to one of its LogOutputChannels so far ("" if nothing yet). */
  extensionLog(channel?: string, extensionId?: string): string;
  /** Resolves with the channel's log once it matches `pattern`. */
  waitForExtensionLog(pattern: string | RegExp, opts?: { channel?: string; extensionId?: string; timeoutMs?: number }): Promise<string>;
  /** Everything code-server printed. */
  serverOutput(): string;
  /** Saves test-output/e2e/<name>.png; returns its path. */
  screenshot(name: string): Promise<string>;
  /** With ARCADIA_README_SHOTS=<folder> (`npm run screenshots`), saves <folder>/<name>.png for the
   * README: real runs only, never edited by hand. Without it, nothing. */
  readmeShot(name: string): Promise<void>;
  /** Closes the browser, kills code-server and everything it started, removes the temp folders
   * (kept when ARCADIA_E2E_KEEP=1). Safe to call twice. */
  close(): Promise<void>;
}

// Instances not yet closed. If the test process exits without closing them (a crashed worker, an
// uncaught error), their processes must not outlive it: kill them synchronously on the way out.
const live = new Set<() => void>();
process.once("exit", () => {
  for (const kill of [...live]) kill();
});

export function extensionLogIn(logsDir: string, channel = "Arcadia", extensionId = ARCADIA_EXTENSION_ID): string {
  if (!existsSync(logsDir)) return "";
  const parts: string[] = [];
  // Timestamped folder names sort chronologically; exthost<n> increases with each restart.
  for (const ts of readdirSync(logsDir).sort()) {
    const dir = join(logsDir, ts);
    let hosts: string[];
    try {
      hosts = readdirSync(dir).filter((d) => /^exthost\d+$/.test(d));
    } catch {
      continue;
    }
    hosts.sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
    for (const host of hosts) {
      const file = join(dir, host, extensionId, `${channel}.log`);
      if (existsSync(file)) parts.push(readFileSync(file, "utf8"));
    }
  }
  return parts.join("");
}

export async function startVsCode(opts: StartOptions): Promise<VsCode> {
  requireIsolation();
  const missing = missingTools().filter((m) => opts.vsix === undefined || !m.includes(e2ePaths.vsix));
  if (missing.length) throw new Error(`end-to-end tools missing:\n  ${missing.join("\n  ")}`);
  const vsix = opts.vsix ?? e2ePaths.vsix;

  const root = mkdtempSync(join(tmpdir(), "vscode-"));
  const dirs = codeServerDirs(root);
  const env = codeServerEnv(dirs, opts.extraEnv);
  const logsDir = join(dirs.userDataDir, "logs");
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let closed = false;

  const killSync = () => {
    server?.kill();
    live.delete(killSync);
  };
  live.add(killSync);

  const close = async () => {
    if (closed) return;
    closed = true;
    await browser?.close();
    killSync();
    if (process.env.ARCADIA_E2E_KEEP === "1") console.log(`e2e: kept ${root}`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    writeSettings(dirs, opts.settings ?? {});
    await installExtension(dirs, vsix, env);
    for (const more of opts.moreVsix ?? []) await installExtension(dirs, more, env);
    server = await startCodeServer(dirs, opts.workspace, env);
    // Chromium gets the same throwaway HOME/XDG dirs: its caches stay out of the real home too.
    browser = await launchBrowser(root, env);
    await waitForWorkbench(browser.page, `${server.url}/?folder=${encodeURIComponent(opts.workspace)}`);
    // ARCADIA_E2E_PLACE=sidebar: Arcadia's view moved into the side bar, ~300 px wide (place.ts).
    await placeArcadia(browser.page);
  } catch (err) {
    const output = server?.output() ?? "";
    if (browser) await browser.page.screenshot({ path: screenshotPath("startup-failure") }).catch(() => undefined);
    await close();
    (err as Error).message += output ? `\n--- code-server output ---\n${output.slice(-4000)}` : "";
    throw err;
  }

  const { page } = browser;
  return {
    page,
    url: server.url,
    userDataDir: dirs.userDataDir,
    logsDir,
    extensionLog: (channel, extensionId) => extensionLogIn(logsDir, channel, extensionId),
    waitForExtensionLog: (pattern, o = {}) =>
      pollUntil(
        () => {
          const log = extensionLogIn(logsDir, o.channel, o.extensionId);
          return (typeof pattern === "string" ? log.includes(pattern) : pattern.test(log)) && log;
        },
        `${o.extensionId ?? ARCADIA_EXTENSION_ID} log "${o.channel ?? "Arcadia"}" to match ${pattern}`,
        o.timeoutMs ?? 30_000,
      ),
    serverOutput: () => server!.output(),
    screenshot: async (name) => {
      const path = screenshotPath(name);
      await page.screenshot({ path });
      return path;
    },
    readmeShot: async (name) => {
      const folder = process.env.ARCADIA_README_SHOTS;
      if (!folder) return;
      mkdirSync(folder, { recursive: true });
      await page.screenshot({ path: join(folder, `${name}.png`) });
    },
    close,
  };
}

function screenshotPath(name: string): string {
  mkdirSync(e2ePaths.output, { recursive: true });
  // A side bar run's pictures beside the panel run's, not over them.
  const prefix = arcadiaPlace() === "sidebar" ? "sidebar-" : "";
  return join(e2ePaths.output, `${prefix}${name.replace(/[^\w.-]+/g, "-")}.png`);
}

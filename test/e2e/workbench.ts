// Driving the VS Code workbench in the page: readiness, the command palette, webviews, terminals.
import type { FrameLocator, Page } from "playwright-core";

/** Opens the workbench and resolves once it is usable: the layout is drawn and the workspace's
 * Explorer is shown (which needs the server connection and the file system to be up). */
export async function waitForWorkbench(page: Page, url: string, timeoutMs = 60_000): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMs });
  await page.locator(".monaco-workbench .part.statusbar").waitFor({ state: "visible", timeout: timeoutMs });
  await workbenchBack(page, timeoutMs);
}

/**
 * After a window reload: the side bar shows what it showed, the Explorer (which needs the server
 * connection and the file system) or, with Arcadia's view moved there (ARCADIA_E2E_PLACE=sidebar),
 * Arcadia's page loaded (which needs the extension host): either says the window is usable again.
 */
export async function workbenchBack(page: Page, timeoutMs = 60_000): Promise<void> {
  const explorer = page.locator(".monaco-workbench .explorer-folders-view");
  const arcadiaInSideBar = () =>
    page.evaluate(() => {
      const bar = document.querySelector(".part.sidebar")?.getBoundingClientRect();
      if (!bar || bar.width === 0) return false;
      return Array.from(document.querySelectorAll<HTMLElement>('iframe.webview.ready[src*="extensionId=arcadia-dev.arcadia"]')).some((f) => {
        const r = f.getBoundingClientRect();
        return r.width > 0 && getComputedStyle(f).visibility !== "hidden" && r.left >= bar.left - 1 && r.right <= bar.right + 1;
      });
    });
  const deadline = Date.now() + timeoutMs;
  while (!(await explorer.isVisible()) && !(await arcadiaInSideBar().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`the workbench not back within ${timeoutMs} ms (neither the Explorer nor Arcadia's view in the side bar)`);
    await page.waitForTimeout(250);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Runs a command by its palette title ("Arcadia: Show Log"), the way a person does: F1, type,
 * click the row whose label is exactly the title. On a fresh profile a contributed command can be
 * missing the first time the palette opens (the list does not refresh while open): close and
 * reopen until the row is there. Never presses Enter on whatever happens to be highlighted.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 60_000, opens?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator(".quick-input-widget");
  const input = widget.locator(".quick-input-box input");
  const exactTitle = new RegExp(`^${escapeRegExp(title)}$`);
  const row = widget.locator(".monaco-list-row").filter({ has: page.locator(".label-name", { hasText: exactTitle }) });
  /**
   * Escape only while the palette's own input has the keys: the focus elsewhere (a terminal that
   * took it back), an Escape reaches Claude Code and interrupts its request — a task typed just
   * before a reload was lost that way (queue.e2e). Else the focus is moved out, which closes it.
   */
  const closePalette = async () => {
    const paletteHasKeys = await input.evaluate((el) => el === document.activeElement, undefined, { timeout: 1_000 }).catch(() => false);
    if (paletteHasKeys) await page.keyboard.press("Escape");
    else await focusWorkbench(page);
    await widget.waitFor({ state: "hidden", timeout: 10_000 }).catch(() => undefined);
  };
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("F1");
    // A webview or terminal holding the focus can swallow F1: close whatever came of it (a palette
    // that opened late), focus the workbench itself, and ask again.
    if (
      !(await input.waitFor({ state: "visible", timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await closePalette();
      await focusWorkbench(page);
      await page.keyboard.press("F1");
      await input.waitFor({ state: "visible", timeout: 10_000 });
    }
    try {
      // Something taking the focus back (a webview settling, a terminal shown) can close the
      // palette just opened, or leave it inert: then it is asked for again.
      await input.fill(`>${title}`, { timeout: 5_000 });
      // Up to 10 s: with ten busy CLIs on two cores the list filtered after more than 3 s (CI).
      await row.first().waitFor({ state: "visible", timeout: Math.min(10_000, Math.max(500, deadline - Date.now())) });
      // Bounded: a row that re-renders under the pointer (the list filtering late on a busy machine)
      // must leave time for another attempt, not use Playwright's 30 s on one.
      // Enter on the focused row when it is the command: a click lands on coordinates, and a list
      // that filters once more between aim and click (a fast machine, CI) can put another row there.
      const focused = widget.locator(".monaco-list-row.focused").filter({ has: page.locator(".label-name", { hasText: exactTitle }) });
      if (await focused.count()) await input.press("Enter", { timeout: 5_000 });
      else await row.first().click({ timeout: 5_000 });
      // A command that asks for something (an input box titled `opens`) keeps the widget open.
      if (opens) await widget.locator(".quick-input-title", { hasText: opens }).waitFor({ timeout: 10_000 });
      else await widget.waitFor({ state: "hidden", timeout: 10_000 });
      return;
    } catch (err) {
      await closePalette();
      if (Date.now() >= deadline) {
        throw new Error(`command "${title}" not found in the palette after ${attempt} attempts`, { cause: err });
      }
    }
  }
}

/**
 * "Developer: Reload Window" from the palette, as a person does it, until the page navigates.
 * Under load (two busy cores, CI) the command was taken — the palette closed within a second — and
 * the window stayed as it was for a minute, no reload begun; a person runs it again, so does this
 * (each try waits up to `perTryMs` for the page to navigate).
 */
export async function reloadWindow(page: Page, tries = 3, perTryMs = 30_000): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const navigated = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout: perTryMs }).then(
      () => true,
      () => false,
    );
    await runCommand(page, "Developer: Reload Window");
    if (await navigated) return;
    if (attempt >= tries) throw new Error(`"Developer: Reload Window" ran ${tries} times and the window never reloaded`);
    console.log(`e2e: "Developer: Reload Window" ran, and the window did not reload within ${perTryMs / 1000} s: again`);
  }
}

/** Takes the keyboard focus out of any webview or terminal: a click on the activity bar's empty part. */
export async function focusWorkbench(page: Page): Promise<void> {
  const bar = page.locator(".part.activitybar");
  const box = await bar.boundingBox();
  if (box) await bar.click({ position: { x: box.width / 2, y: Math.max(10, box.height * 0.55) } });
}

/**
 * The content frame of a webview view (a panel or sidebar view contributed with a webview). A
 * webview is two nested iframes: VS Code's host frame (`iframe.webview.ready`, its src names the
 * extension and `purpose=webviewView`) and the page's `#active-frame`. VS Code does not put the
 * view id into the DOM, so the view is found by extension and purpose: the visible one.
 */
export function webviewFrame(page: Page, extensionId = "arcadia-dev.arcadia", purpose?: string): FrameLocator {
  // `purpose=webviewView` is in the src of a view's first webview only: one re-created after the
  // view was hidden (the terminal took the panel) lacks it. So by default: by extension, visible.
  const byPurpose = purpose ? `[src*="purpose=${purpose}"]` : "";
  return page
    .locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]${byPurpose}`)
    .locator("visible=true")
    .contentFrame()
    .frameLocator("#active-frame");
}

/** Text of the active integrated terminal (of the part given, if any: the panel and the editor
 * area can each show one), one line per row, trailing blanks trimmed. Needs
 * `terminal.integrated.gpuAcceleration: "off"` (the harness sets it): otherwise the text is on a
 * canvas and not in the DOM. */
export async function terminalText(page: Page, within = ""): Promise<string> {
  // `within` narrows to one part (".part.editor" for a terminal moved into the editor area).
  const rows = await page.locator(`${within} .terminal-wrapper.active .xterm-rows > div`.trim()).allTextContents();
  const text = rows.map((r) => r.replace(/\u00a0/g, " ").trimEnd()).join("\n");
  return text.replace(/\n+$/, "");
}

/** The palette title of a contributed view's generated "focus" command ("<container title>: Focus
 * on <view name> View"), read from the extension's package.json. */
export function focusViewTitle(manifest: ExtensionManifest, viewId: string): string {
  const views = manifest.contributes?.views ?? {};
  for (const [containerId, list] of Object.entries(views)) {
    const view = list.find((v) => v.id === viewId);
    if (!view) continue;
    const containers = Object.values(manifest.contributes?.viewsContainers ?? {}).flat();
    const container = containers.find((c) => c.id === containerId);
    return `${container?.title ?? containerId}: Focus on ${view.name} View`;
  }
  throw new Error(`view ${viewId} is not contributed by ${manifest.publisher}.${manifest.name}`);
}

export interface ExtensionManifest {
  name: string;
  publisher: string;
  contributes?: {
    views?: Record<string, { id: string; name: string }[]>;
    viewsContainers?: Record<string, { id: string; title: string }[]>;
  };
}

/** Shows a contributed view (e.g. Arcadia's panel) and gives it focus, through its palette
 * command, as a person would. */
export async function revealView(page: Page, manifest: ExtensionManifest, viewId: string): Promise<void> {
  await runCommand(page, focusViewTitle(manifest, viewId));
}

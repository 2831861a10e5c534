/**
 * Where Arcadia's view sits in the window under test. By default it is where the extension puts it
 * (a tab in the bottom panel). With `ARCADIA_E2E_PLACE=sidebar` every window is set up as a user who
 * keeps Arcadia in the side bar: "View: Move View" → "Agents" → "New Side Bar Entry", then the side
 * bar's sash dragged until Arcadia's page is ~300 px wide (issue 33: "nothing scrolls sideways at any
 * width from 280 px up, in the panel or the side bar"). VS Code keeps both across a window reload.
 */
import type { Frame, FrameLocator, Page } from "playwright-core";
import { pollUntil } from "../support/waitFor";
import { focusWorkbench, webviewFrame } from "./workbench";

export type Place = "panel" | "sidebar";

/** The page width the side bar is sized to. */
export const SIDEBAR_PAGE_WIDTH = 300;

export function arcadiaPlace(): Place {
  return process.env.ARCADIA_E2E_PLACE === "sidebar" ? "sidebar" : "panel";
}

/** Whether Arcadia's view shows in the side bar. A webview's iframe is not inside its part in the
 * DOM (VS Code lays webviews over the workbench), so it is told by where it is drawn: a visible
 * Arcadia webview whose box lies inside the side bar's. */
async function shownInSideBar(page: Page): Promise<boolean> {
  const bar = await page
    .locator(".part.sidebar")
    .boundingBox()
    .catch(() => null);
  if (!bar || bar.width === 0) return false;
  const boxes = await page
    .locator('iframe.webview.ready[src*="extensionId=arcadia-dev.arcadia"]')
    .evaluateAll((all) =>
      all.filter((f) => f.getClientRects().length > 0 && getComputedStyle(f).visibility !== "hidden").map((f) => f.getBoundingClientRect().toJSON() as DOMRect),
    );
  return boxes.some((b) => b.width > 0 && b.left >= bar.x - 1 && b.right <= bar.x + bar.width + 1 && b.top >= bar.y - 1 && b.bottom <= bar.y + bar.height + 1);
}

/**
 * The page of Arcadia's view (the agents), wherever it is. In the side bar an editor tab's Arcadia
 * page (Sessions, a race's compare) can show beside it, both visible: the view's is the one left of
 * the editor area (Playwright's layout selector; VS Code lays webviews over the workbench, outside their part).
 */
export function arcadiaViewFrame(page: Page): FrameLocator {
  if (arcadiaPlace() !== "sidebar") return webviewFrame(page);
  return page
    .locator('iframe.webview.ready[src*="extensionId=arcadia-dev.arcadia"]:left-of(.part.editor)')
    .locator("visible=true")
    .contentFrame()
    .frameLocator("#active-frame");
}

/** Whether Arcadia's view is in front where it lives: its panel tab checked, or its page shown in the side bar. */
export async function arcadiaInFront(page: Page): Promise<boolean> {
  if (arcadiaPlace() === "sidebar") return shownInSideBar(page);
  const tab = page.locator(".part.panel .composite-bar .action-item", { hasText: /^Arcadia$/ });
  return (await tab.getAttribute("class", { timeout: 2_000 }).catch(() => ""))?.includes("checked") ?? false;
}

/**
 * Brings Arcadia's view to the front in the side bar as a user does: its activity bar icon (the
 * "Arcadia: Focus on Agents View" command is gone once the view has moved; after a window reload
 * the side bar can come back showing the Explorer). A click on the icon of the container already
 * shown would close the side bar: only when the view is not in front.
 */
export async function showInSideBar(page: Page): Promise<void> {
  if (await shownInSideBar(page)) return;
  const icon = page.locator(
    '.part.activitybar .action-item a.action-label[aria-label*="Agents"], .part.activitybar .action-item a.action-label[aria-label*="Arcadia"]',
  );
  await icon.first().click({ timeout: 10_000 });
  await pollUntil(() => shownInSideBar(page), "Arcadia's view in front in the side bar", 30_000);
}

/** Moves the view as `ARCADIA_E2E_PLACE` says (nothing for the panel); called once the workbench is up. */
export async function placeArcadia(page: Page): Promise<void> {
  if (arcadiaPlace() !== "sidebar") return;
  await moveViewToSideBar(page);
  console.log(`e2e: Arcadia's view in the side bar, its page ${await sizeSideBar(page, SIDEBAR_PAGE_WIDTH)} px wide`);
}

/** "View: Move View": the view's row ("Agents"), then "New Side Bar Entry", as a user picks them. */
async function moveViewToSideBar(page: Page): Promise<void> {
  const widget = page.locator(".quick-input-widget");
  const input = widget.locator(".quick-input-box input");
  const row = (label: string) => widget.locator(".monaco-list-row").filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${label}$`) }) });
  const pick = async (label: string, filter: string) => {
    await input.fill(filter, { timeout: 5_000 });
    await row(label).first().waitFor({ state: "visible", timeout: 10_000 });
    await row(label).first().click({ timeout: 5_000 });
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await focusWorkbench(page);
      await page.keyboard.press("F1");
      await input.waitFor({ state: "visible", timeout: 5_000 });
      // The view list is filled from the extensions' contributions, which come a moment after the
      // workbench: a list without "Agents" is closed and asked for again.
      await pick("View: Move View", ">View: Move View");
      await pick("Agents", "Agents");
      await pick("New Side Bar Entry", "New Side Bar");
      await widget.waitFor({ state: "hidden", timeout: 10_000 });
      break;
    } catch (err) {
      await page.keyboard.press("Escape");
      await widget.waitFor({ state: "hidden", timeout: 5_000 }).catch(() => undefined);
      if (attempt >= 4) throw new Error("could not move Arcadia's view into the side bar", { cause: err });
    }
  }
  // Moved, the view shows in the side bar (its own activity bar entry, in front).
  await pollUntil(() => shownInSideBar(page), "Arcadia's view in the side bar", 30_000);
}

/** The content frame of Arcadia's page in the side bar: the agents page (the other Arcadia pages are editor tabs). */
export function sidebarPage(page: Page, timeoutMs = 30_000): Promise<Frame> {
  return pollUntil(
    async () => {
      for (const f of page.frames()) {
        if (!f.url().includes("/pre/fake.html") || !f.parentFrame()?.url().includes("extensionId=arcadia-dev.arcadia")) continue;
        if ((await f.evaluate(() => document.body?.dataset.view).catch(() => undefined)) === "agents") return f;
      }
      return undefined;
    },
    "Arcadia's page in the side bar",
    timeoutMs,
  );
}

/** Drags the sash on the side bar's right edge until Arcadia's page is `width` px wide (±2). */
async function sizeSideBar(page: Page, width: number): Promise<number> {
  const frame = await sidebarPage(page);
  const pageWidth = () => frame.evaluate(() => document.documentElement.clientWidth);
  for (let i = 0; i < 5; i++) {
    const now = await pageWidth();
    if (Math.abs(now - width) <= 2) return now;
    const edge = await page.locator(".part.sidebar").evaluate((bar) => bar.getBoundingClientRect().right);
    // The vertical sash nearest the side bar's right edge is the one between it and the editor.
    const sash = await page.locator(".monaco-sash.vertical").evaluateAll(
      (all, x) =>
        all
          .map((s) => s.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 100)
          .map((r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 }))
          .sort((a, b) => Math.abs(a.x - x) - Math.abs(b.x - x))[0],
      edge,
    );
    if (!sash) throw new Error("no sash beside the side bar");
    await page.mouse.move(sash.x, sash.y);
    await page.mouse.down();
    await page.mouse.move(sash.x + (width - now) / 2, sash.y, { steps: 4 });
    await page.mouse.move(sash.x + (width - now), sash.y, { steps: 4 });
    await page.mouse.up();
    // The pointer off the sash (hovered, it is drawn highlighted in every screenshot).
    await page.mouse.move(sash.x + 300, sash.y);
    await page.waitForTimeout(300);
  }
  const got = await pageWidth();
  if (Math.abs(got - width) > 2) throw new Error(`the side bar's page is ${got} px wide, not ${width}`);
  return got;
}

/**
 * What a user sees across an Arcadia page (at 300 px in the side bar above all): whether the page
 * scrolls sideways, and for each element matching `selector` that shows, its words whole (not
 * wider than its own box, nor cut by a clipping box around it) and inside the page's width; with
 * `hit`, also that a click at its centre lands on it (`elementFromPoint`: nothing over it, on screen).
 */
export function widthSeen(frame: Frame, selector: string, hit = false) {
  return frame.evaluate(
    ({ sel, hit }) => {
      const root = document.scrollingElement ?? document.documentElement;
      const width = document.documentElement.clientWidth;
      const clippedBy = (e: HTMLElement): boolean => {
        const r = e.getBoundingClientRect();
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === "visible") continue;
          const box = a.getBoundingClientRect();
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5) return true;
        }
        return false;
      };
      const items = Array.from(document.querySelectorAll<HTMLElement>(sel))
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => {
          const r = e.getBoundingClientRect();
          const inline = getComputedStyle(e).display === "inline";
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            text: e.textContent?.trim() ?? "",
            whole: (inline || e.scrollWidth <= e.clientWidth + 0.5) && !clippedBy(e),
            inside: r.left >= -0.5 && r.right <= width + 0.5,
            ...(hit ? { hit: at !== null && (at === e || e.contains(at)) } : {}),
          };
        });
      return { width, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, items };
    },
    { sel: selector, hit },
  );
}

/** What is wrong in `widthSeen`'s answer, as a user would say it: [] when nothing. */
export function widthProblems(seen: Awaited<ReturnType<typeof widthSeen>>, what = "the page"): string[] {
  const problems: string[] = [];
  if (seen.scrollWidth > seen.clientWidth) problems.push(`${what} scrolls sideways (${seen.scrollWidth} px in ${seen.clientWidth})`);
  for (const i of seen.items) {
    if (!i.whole) problems.push(`"${i.text}" cut`);
    if (!i.inside) problems.push(`"${i.text}" past the page's edge`);
    if (i.hit === false) problems.push(`"${i.text}" not where a click lands`);
  }
  return problems;
}

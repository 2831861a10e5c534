/// <reference lib="dom" />
/**
 * Steps of the races e2e where the race changes from outside its agents, as a user in a terminal
 * changes it, and the open compare tab must follow (issue 33): a file written by hand into a
 * member's worktree (its check reads stale, its counts grow; deleted, both come back), a commit on
 * the base branch in the main checkout (every forecast reads the conflict; reset, clean again);
 * and what a modal dialog's default button is (the one Enter presses: focused, primary-styled).
 * Each change is timed from the moment it was made to the moment the tab shows it.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { pollUntil } from "./harness";

/** How long the tab may take before the step fails: the goal is 2 s, a loaded 2-core machine gets slack. */
const SHOWN_WITHIN_MS = 10_000;

/** Polls `probe` (which returns what it saw, or true) until true; the ms from `from` to then. */
async function shownAfter(from: number, probe: () => Promise<string | true>, what: string): Promise<number> {
  let seen = "";
  await pollUntil(
    async () => {
      const got = await probe().catch((err: unknown) => String(err));
      if (got === true) return true;
      seen = got;
      return false;
    },
    () => `${what} (seen: ${seen})`,
    SHOWN_WITHIN_MS,
    50,
  );
  return Date.now() - from;
}

/**
 * A one-line file written into `worktree` by hand: `column`'s check ends "· its files changed
 * since" and its counts read "2 files · +2 −1"; the file deleted: "1 file · +1 −1" and the check
 * no longer stale (staleness is by git's tree id, the same files as when it ran). Times in ms.
 */
export async function handEditMarksStale(
  column: Locator,
  worktree: string,
  screenshot: (name: string) => Promise<unknown>,
): Promise<{ staleMs: number; freshAgainMs: number }> {
  const check = column.locator('[data-testid="compare-check"]');
  const changes = column.locator('[data-testid="compare-changes"]');
  const read = async (): Promise<[string, string]> => [
    // The words between its "Check:" label and its "output" link.
    await check.evaluate(
      (el) =>
        Array.from(el.childNodes, (n) => (n.nodeType === Node.TEXT_NODE ? n.textContent : ""))
          .join("")
          .trim(),
      undefined,
      {
        timeout: 1_000,
      },
    ),
    (await changes.textContent({ timeout: 1_000 })) ?? "",
  ];
  const [before] = await read();
  if (!/^passed · exit 0 · [\d.]+ m?s$/.test(before)) throw new Error(`the check should read passed and fresh before the edit, reads "${before}"`);
  const file = join(worktree, "notes.txt");
  const wroteAt = Date.now();
  writeFileSync(file, "a note the user wrote by hand\n");
  const staleMs = await shownAfter(
    wroteAt,
    async () => {
      const [c, n] = await read();
      return (c.startsWith("passed · exit 0 · ") && c.endsWith(" · its files changed since") && n === "2 files · +2 −1") || `${c} | ${n}`;
    },
    "the check stale and 2 files · +2 −1 after notes.txt was written",
  );
  await screenshot("races-2a-check-stale");
  const removedAt = Date.now();
  rmSync(file);
  const freshAgainMs = await shownAfter(
    removedAt,
    async () => {
      const [c, n] = await read();
      return (/^passed · exit 0 · [\d.]+ m?s$/.test(c) && n === "1 file · +1 −1") || `${c} | ${n}`;
    },
    "the check fresh and 1 file · +1 −1 after notes.txt was deleted",
  );
  return { staleMs, freshAgainMs };
}

/**
 * A commit on the base branch in the main checkout that changes the line every member changes:
 * every column's forecast reads "conflicts with main in App.tsx"; `git reset --hard HEAD~1`:
 * "merges cleanly into main" again. `git` runs in the main checkout. Times in ms from each command.
 */
export async function baseCommitChangesForecast(
  columns: Locator[],
  workspace: string,
  git: (...args: string[]) => string,
  screenshot: (name: string) => Promise<unknown>,
): Promise<{ conflictMs: number; cleanAgainMs: number }> {
  const forecasts = () => Promise.all(columns.map(async (c) => (await c.locator('[data-testid="compare-merge"]').textContent({ timeout: 1_000 })) ?? ""));
  const all = (text: string) => async () => {
    const seen = await forecasts();
    return seen.every((t) => t === text) || seen.join(" | ");
  };
  if ((await all("merges cleanly into main")()) !== true) throw new Error(`every forecast should read clean first: ${(await forecasts()).join(" | ")}`);
  writeFileSync(join(workspace, "App.tsx"), 'export const title = "main moved on";\n');
  const committedAt = Date.now();
  git("commit", "-q", "-am", "main moves on");
  const conflictMs = await shownAfter(committedAt, all("conflicts with main in App.tsx"), "every forecast: conflicts with main in App.tsx");
  await screenshot("races-2b-forecast-conflict");
  const resetAt = Date.now();
  git("reset", "-q", "--hard", "HEAD~1");
  const cleanAgainMs = await shownAfter(resetAt, all("merges cleanly into main"), "every forecast clean again after the reset");
  return { conflictMs, cleanAgainMs };
}

export interface DialogDefault {
  /** Every button, in order on screen. */
  buttons: string[];
  /** The button that has the keyboard focus (Enter presses it); null if focus is not in the dialog. */
  focused: string | null;
  /** The buttons styled as the primary one (VS Code: a dialog button without `secondary`). */
  primary: string[];
}

/**
 * The open modal dialog's buttons and which is its default, once focus is inside it (polled);
 * `report` (a figure only, not judged): as soon as the dialog shows, focused or not (seen once on a
 * loaded machine: focus still outside the Merge dialog after 10 s).
 */
export async function dialogDefault(page: Page, report = false): Promise<DialogDefault> {
  const read = () =>
    page.evaluate((): DialogDefault | undefined => {
      const box = document.querySelector(".monaco-dialog-box");
      if (!box) return undefined;
      const buttons = Array.from(box.querySelectorAll<HTMLElement>(".dialog-buttons .monaco-button"));
      const text = (el: Element) => (el.textContent ?? "").trim();
      const active = document.activeElement;
      const focused = active && box.contains(active) ? (active.closest(".monaco-button") ?? active) : null;
      return {
        buttons: buttons.map(text),
        focused: focused ? text(focused) : null,
        primary: buttons.filter((b) => !b.classList.contains("secondary")).map(text),
      };
    });
  let last: DialogDefault | undefined;
  return pollUntil(
    async () => {
      last = await read();
      return last?.focused || (report && last) ? last : undefined;
    },
    () => `the dialog's focused button (seen: ${JSON.stringify(last)})`,
    SHOWN_WITHIN_MS,
    50,
  );
}

/**
 * A running call's clocks as the user reads them in the panel (its counter, its "still running"
 * time, the overview line's time), read in the panel's page at one moment, and the check that
 * each counts from Allow rather than from the question (issue 33 item 10).
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { panelContentFrame } from "./panelFrame";

export interface Clocks {
  at: number;
  call: string[];
  still: string[];
  line: string[];
}

/** "1m 03s" → 63. */
export function secondsIn(text: string | undefined): number {
  const m = /(?:(\d+)m )?(\d+)s/.exec(text ?? "");
  if (!m) throw new Error(`unexpected time text "${text}"`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

/** Seconds from the question and from Allow to the moment the clocks were read. */
export function fromAllow(clocks: Clocks, askedAt: number, allowedAt: number) {
  return { sinceQuestionS: (clocks.at - askedAt) / 1000, sinceAllowS: (clocks.at - allowedAt) / 1000 };
}

export const prefixed = (prefix: string, figures: Record<string, number>) =>
  Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${prefix}${k[0]?.toUpperCase()}${k.slice(1)}`, Math.round(v * 10) / 10]));

/** A clock counting from Allow: well below the time since the question, and at most ~2–3 s behind the time since Allow. */
export function expectFromAllow(shownS: number, at: { sinceQuestionS: number; sinceAllowS: number }, what: string): void {
  const said = `${what}: ${shownS} s shown, ${at.sinceAllowS.toFixed(1)} s since Allow, ${at.sinceQuestionS.toFixed(1)} s since the question`;
  expect(shownS, said).toBeLessThan(at.sinceQuestionS - 5);
  // Never more than since the click; behind it by the extension's handling of Allow (the clock
  // starts when the call is let run) plus the whole-second display: 1.8–2.0 s measured here.
  expect(shownS, said).toBeLessThanOrEqual(at.sinceAllowS + 1);
  expect(shownS, said).toBeGreaterThanOrEqual(at.sinceAllowS - 3);
}

/** Every clock of an agent, read in the panel's page at one moment (`at`, the page's clock): its
 * details' running counters, "still running" times and the overview line's time. */
export async function agentClocks(page: Page, name: string): Promise<Clocks> {
  const frame = await panelContentFrame(page);
  return frame.evaluate((agent) => {
    const named = (selector: string, nameSelector: string) =>
      Array.from(document.querySelectorAll(selector)).find((e) => (e.querySelector(nameSelector)?.textContent ?? "").trim() === agent);
    const texts = (root: Element | undefined, selector: string) => Array.from(root?.querySelectorAll(selector) ?? []).map((e) => e.textContent ?? "");
    const card = named('[data-testid="agent-card"]', '[data-testid="agent-name"]');
    const line = named('[data-testid="agent-line"]', '[data-testid="line-name"]');
    return {
      at: Date.now(),
      call: texts(card, '[data-testid="call-elapsed"]'),
      still: texts(card, '[data-testid="still-running-elapsed"]'),
      line: texts(line, '[data-testid="line-elapsed"]'),
    };
  }, name);
}

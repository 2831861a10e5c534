/**
 * Burn rate: dollars per hour over the last minutes, and when a cap is reached at that rate. Pure
 * functions over samples of an agent's cumulative spend (taken as its cost changes), so an agent
 * that stops spending sees its rate fall to 0 as the window moves on.
 */

export interface SpendSample {
  /** ms since the epoch. */
  at: number;
  /** Cumulative USD at that moment. */
  usd: number;
}

/** The rate is measured over this window, or from the first sample when the agent is younger. */
export const BURN_WINDOW_MS = 15 * 60_000;
/** Less than this spent time says nothing yet. */
export const MIN_SPAN_MS = 60_000;

/** USD per hour over `windowMs` before `now`, or undefined when the samples span less than a minute. */
export function burnRate(samples: readonly SpendSample[], now: number, windowMs = BURN_WINDOW_MS): number | undefined {
  if (samples.length === 0) return undefined;
  const start = now - windowMs;
  // The spend at the window's start: the last sample at or before it, else the first sample (and the span starts there).
  let base: SpendSample = samples[0]!;
  for (const sample of samples) if (sample.at <= start) base = sample;
  const from = Math.max(start, base.at);
  const span = now - from;
  if (span < MIN_SPAN_MS) return undefined;
  const latest = samples[samples.length - 1]!;
  return (Math.max(0, latest.usd - base.usd) / span) * 3_600_000;
}

/** ms until `capUsd` is reached at `usdPerHour`; 0 when already reached, undefined when never (no rate). */
export function timeToCap(spentUsd: number, capUsd: number, usdPerHour: number | undefined): number | undefined {
  if (spentUsd >= capUsd) return 0;
  if (usdPerHour === undefined || usdPerHour <= 0) return undefined;
  return ((capUsd - spentUsd) / usdPerHour) * 3_600_000;
}

/** "$1.20/h" */
export function rateText(usdPerHour: number): string {
  return `$${usdPerHour < 10 ? usdPerHour.toFixed(2) : Math.round(usdPerHour).toString()}/h`;
}

/** "at this rate the cap is reached in 25 min" (or "in 3 h 10 min"); undefined when it never is. */
export function capEtaText(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms <= 0) return "the cap is reached";
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const shown = minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
  return `at this rate the cap is reached in ${shown}`;
}

/** Keeps an agent's samples bounded: only the window's and the one before it. */
export function keptSamples(samples: readonly SpendSample[], now: number, windowMs = BURN_WINDOW_MS): SpendSample[] {
  const start = now - windowMs;
  const firstInside = samples.findIndex((s) => s.at > start);
  if (firstInside <= 0) return firstInside === -1 ? samples.slice(-1) : [...samples];
  return samples.slice(firstInside - 1);
}

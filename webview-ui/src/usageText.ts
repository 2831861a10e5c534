/** The words for usage and time on cards: token counts, cost, durations. */
import type { CardView, ClosedSpend, SessionUsageView } from "../../src/shared/protocol";

/** 1234 → "1.2k", 12_500 → "12.5k", 13_000 → "13k", 3_400_000 → "3.4M". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  const short = (value: number) => value.toFixed(value < 100 ? 1 : 0).replace(/\.0$/, "");
  if (n < 999_500) return `${short(n / 1000)}k`;
  return `${short(n / 1_000_000)}M`;
}

/** "$0.42", "< $0.01", "$12". */
export function usd(amount: number): string {
  if (amount > 0 && amount < 0.01) return "< $0.01";
  return `$${amount < 100 ? amount.toFixed(2) : amount.toFixed(0)}`;
}

/**
 * An estimated cost as a figure reads: "~$0.42" (about), "< $0.01" (already a bound: "~< $0.01"
 * would say "about less than").
 */
export function costText(amount: number): string {
  return amount > 0 && amount < 0.01 ? usd(amount) : `~${usd(amount)}`;
}

export const tokensOf = (usage: SessionUsageView) => usage.tokens.input + usage.tokens.output + usage.tokens.cacheRead + usage.tokens.cacheWrite;

/** The card's line: "12.3k tokens · ~$0.42". */
export function usageLine(usage: SessionUsageView): string {
  return `${compactNumber(tokensOf(usage))} tokens · ${costText(usage.costUsd)}`;
}

/** Its tooltip: every kind of token and how the cost is estimated. */
export function usageTitle(usage: SessionUsageView): string {
  const t = usage.tokens;
  const unpriced = usage.unpricedModels.length > 0 ? `\nNot priced (unknown model): ${usage.unpricedModels.join(", ")}` : "";
  return (
    `This session: ${t.input.toLocaleString()} input, ${t.output.toLocaleString()} output, ${t.cacheRead.toLocaleString()} cache read, ` +
    `${t.cacheWrite.toLocaleString()} cache write tokens.\nEstimated cost ${usd(usage.costUsd)} at list API prices.${unpriced}`
  );
}

/** "42 s", "3 min", "1 h 5 min". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * The header's total over every card's session and the agents closed today: "1.2M tokens · ~$4.20",
 * then "· 2 closed" when those are in it. A close never makes the figure drop (issue 33). `closed`
 * is today's as the extension counts it (it sends only the current day's).
 */
export function usageTotal(cards: Iterable<Pick<CardView, "usage">>, closed: ClosedSpend | null = null): string | null {
  const counted = closed && closed.agents > 0 ? closed : null;
  let tokens = counted?.tokens ?? 0;
  let cost = counted?.costUsd ?? 0;
  let any = counted !== null;
  for (const view of cards) {
    if (!view.usage) continue;
    any = true;
    tokens += tokensOf(view.usage);
    cost += view.usage.costUsd;
  }
  if (!any) return null;
  const closedWords = counted ? ` · ${counted.agents} closed` : "";
  return `${compactNumber(tokens)} tokens · ${costText(cost)}${closedWords}`;
}

/** The total's tooltip: what it counts, and the closed agents' part of it. */
export function usageTotalTitle(closed: ClosedSpend | null): string {
  const base = "Tokens and estimated cost of the sessions the cards follow, at list API prices";
  if (!closed || closed.agents === 0) return base;
  const agents = closed.agents === 1 ? "1 agent" : `${closed.agents} agents`;
  return `${base}, and of ${agents} closed today (${compactNumber(closed.tokens)} tokens · ${costText(closed.costUsd)})`;
}

/** The context gauge's model: the share of the window used, its text, and when it turns to the warning colour. */
import type { CardView } from "../../src/shared/protocol";

/** Past this share of the window the gauge turns to the warning colour. */
export const CONTEXT_WARNING_RATIO = 0.8;

export interface ContextGaugeModel {
  /** 0–100, rounded; the bar never draws past full. */
  percent: number;
  warning: boolean;
  /** "123k of 200k tokens". */
  text: string;
}

/** "850", "123k", "1.2M": short enough for a tooltip beside a percentage. */
export function formatTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1000) return String(n);
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

/** What the gauge shows, or null when there is nothing honest to show (no usage yet, no window). */
export function contextGauge(context: CardView["context"] | undefined): ContextGaugeModel | null {
  if (!context) return null;
  const { usedTokens, windowTokens } = context;
  if (!Number.isFinite(usedTokens) || !Number.isFinite(windowTokens) || windowTokens <= 0 || usedTokens < 0) return null;
  const ratio = usedTokens / windowTokens;
  return {
    percent: Math.min(100, Math.round(ratio * 100)),
    warning: ratio > CONTEXT_WARNING_RATIO,
    text: `${formatTokens(usedTokens)} of ${formatTokens(windowTokens)} tokens`,
  };
}

/**
 * What a model's tokens cost: the one price table, USD per million tokens.
 *
 * Source: the model catalog built into Claude Code 2.1.330 (`pricing_tiers` and each model's
 * `pricing`), which is what the CLI's own `cost-state` totals use; they agree with Anthropic's
 * published API prices for the models both list. Checked 2026-11-26. The CLI's refinements are left
 * out (a 1-hour cache write costs more than a 5-minute one, US-only inference ×1.1, Haiku 5.5's
 * long-prompt tier): an estimate, and said to be one wherever it is shown.
 */
export const PRICES_AS_OF = "2026-11-26";
export const PRICES_SOURCE = "Claude Code 2.1.330's built-in model catalog (USD per million tokens)";

export interface ModelPrice {
  input: number;
  output: number;
  /** Writing the prompt cache (5-minute cache). */
  cacheWrite: number;
  cacheRead: number;
}

const tier = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => ({ input, output, cacheWrite, cacheRead });

const TIER_2_10 = tier(2, 10, 2.5, 0.2);
const TIER_2_10_READ_0_10 = tier(2, 10, 2.5, 0.1);
const TIER_3_15 = tier(3, 15, 3.75, 0.3);
const TIER_5_25 = tier(5, 25, 6.25, 0.5);
const TIER_15_75 = tier(15, 75, 18.75, 1.5);
const TIER_10_50 = tier(10, 50, 12.5, 1);
const TIER_10_50_READ_0_25 = tier(10, 50, 12.5, 0.25);
const TIER_4_20_READ_0_20 = tier(4, 20, 5, 0.2);
const TIER_8_40_READ_0_20 = tier(8, 40, 10, 0.2);

/** Catalog id → price. Ids are matched after `modelKey` (dates, regions and `[1m]` removed). */
const PRICES: Record<string, ModelPrice> = {
  "claude-3-5-haiku": tier(0.8, 4, 1, 0.08),
  "claude-haiku-4-5": tier(1, 5, 1.25, 0.1),
  "claude-haiku-5-5": tier(0.1, 0.5, 0.125, 0.01),
  "claude-3-5-sonnet": TIER_3_15,
  "claude-3-7-sonnet": TIER_3_15,
  "claude-sonnet-4": TIER_3_15,
  "claude-sonnet-4-0": TIER_3_15,
  "claude-sonnet-4-5": TIER_3_15,
  "claude-sonnet-4-6": TIER_3_15,
  "claude-sonnet-5": TIER_2_10,
  "claude-sonnet-5-5": TIER_2_10_READ_0_10,
  "claude-opus-4": TIER_15_75,
  "claude-opus-4-0": TIER_15_75,
  "claude-opus-4-1": TIER_15_75,
  "claude-opus-4-5": TIER_5_25,
  "claude-opus-4-6": TIER_5_25,
  "claude-opus-4-7": TIER_5_25,
  "claude-opus-4-8": TIER_5_25,
  "claude-opus-5": TIER_5_25,
  "claude-opus-5-5": TIER_4_20_READ_0_20,
  "claude-fable-5": TIER_10_50,
  "claude-fable-5-1": TIER_10_50_READ_0_25,
  "claude-fable-5-2": TIER_8_40_READ_0_20,
  "claude-mythos-5": TIER_10_50,
  "claude-mythos-5-1": TIER_10_50_READ_0_25,
  "claude-mythos-5-2": TIER_8_40_READ_0_20,
};

/**
 * A model id as the catalog names it: `claude-haiku-4-5-20251001` → `claude-haiku-4-5`,
 * `us.anthropic.claude-opus-4-1-20250805-v1:0` → `claude-opus-4-1`, `claude-opus-4-5@20251101`,
 * `claude-sonnet-4-5[1m]` → `claude-sonnet-4-5`.
 */
export function modelKey(model: string): string {
  let key = model.toLowerCase().trim();
  key = key.replace(/\[[^\]]*\]$/, "");
  const at = key.indexOf("claude-");
  if (at > 0) key = key.slice(at);
  key = key
    .replace(/@.*$/, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/-\d{8}$/, "")
    .replace(/-latest$/, "");
  return key;
}

/** The price of a model, or undefined when the table does not know it (its cost is not guessed). */
export function priceOf(model: string): ModelPrice | undefined {
  return Object.hasOwn(PRICES, modelKey(model)) ? PRICES[modelKey(model)] : undefined;
}

/** Every model id the table prices (tests check each one's arithmetic). */
export function pricedModels(): string[] {
  return Object.keys(PRICES);
}

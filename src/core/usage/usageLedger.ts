/**
 * The tokens a session used, per model, summed from its transcript's `assistant` records.
 *
 * One API message is written as one record per content block, all with the same `message.id`,
 * and the usage on them grows as the reply streams (output_tokens 3 on the first, 172 on the
 * last): each message counts once, with the largest figures any of its records carried. Records
 * of a message are written together, so remembering the recent ids is enough. Synthetic replies
 * (`<synthetic>`, API errors) carry zeros and count nothing.
 */
import { asNumber, asString, isObject, type Json, timestampOf } from "../transcript";
import { priceOf } from "./prices";

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface UsageTotals {
  /** Per model id as the transcript names it. */
  byModel: Record<string, TokenCounts>;
}

export interface CostEstimate {
  usd: number;
  /** Models used that the price table does not know: their tokens are counted, their cost is not. */
  unpricedModels: string[];
}

/** Message ids remembered to merge a message's records (they are consecutive; a few dozen is plenty). */
const RECENT_MESSAGES = 64;
/** Days kept apart (the budget's day cap reads today's; a session rarely spans more). */
const DAYS_KEPT = 3;

/** The local calendar day of a moment, "2026-11-28": the day a day cap counts. */
export function localDay(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const zeroCounts = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** Every kind of token together: the one figure a card, a row or a total shows. */
export const tokenCount = (counts: TokenCounts): number => counts.input + counts.output + counts.cacheRead + counts.cacheWrite;
const FIELDS = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** Adds `more` to `target` (mutated, returned). */
function addInto(target: TokenCounts, more: TokenCounts): TokenCounts {
  for (const field of FIELDS) target[field] += more[field];
  return target;
}

function countsOf(usage: Json): TokenCounts {
  const n = (v: unknown) => Math.max(0, asNumber(v) ?? 0);
  return {
    input: n(usage.input_tokens),
    output: n(usage.output_tokens),
    cacheRead: n(usage.cache_read_input_tokens),
    cacheWrite: n(usage.cache_creation_input_tokens),
  };
}

export class UsageLedger {
  private readonly totals: Record<string, TokenCounts> = Object.create(null) as Record<string, TokenCounts>;
  private readonly recent = new Map<string, TokenCounts>();
  /** The same tokens by the local day of the record that brought them (a record without a time counts in totals only). */
  private readonly days = new Map<string, Record<string, TokenCounts>>();

  /** Counts one record (anything but an `assistant` record with usage is ignored). True when the totals changed. */
  add(record: Json): boolean {
    if (record.type !== "assistant" || !isObject(record.message) || !isObject(record.message.usage)) return false;
    const model = asString(record.message.model);
    if (!model || model.startsWith("<")) return false;
    const counts = countsOf(record.message.usage);
    const id = asString(record.message.id);
    const seen = id === undefined ? undefined : this.recent.get(id);
    // What this record adds to what its message's earlier records carried (nothing can go down).
    const delta = zeroCounts();
    for (const field of FIELDS) delta[field] = Math.max(0, counts[field] - (seen?.[field] ?? 0));
    if (id !== undefined) {
      this.recent.delete(id);
      this.recent.set(id, seen ? addInto(seen, delta) : counts);
      if (this.recent.size > RECENT_MESSAGES) this.recent.delete(this.recent.keys().next().value!);
    }
    if (FIELDS.every((field) => delta[field] === 0)) return false;
    addInto((this.totals[model] ??= zeroCounts()), delta);
    const at = timestampOf(record);
    if (at !== undefined) this.addToDay(localDay(at), model, delta);
    return true;
  }

  /** The tokens of records written on `day` (localDay). */
  usageOn(day: string): UsageTotals {
    const byModel: Record<string, TokenCounts> = {};
    for (const [model, counts] of Object.entries(this.days.get(day) ?? {})) byModel[model] = { ...counts };
    return { byModel };
  }

  private addToDay(day: string, model: string, delta: TokenCounts): void {
    let models = this.days.get(day);
    if (!models) {
      models = Object.create(null) as Record<string, TokenCounts>;
      this.days.set(day, models);
      if (this.days.size > DAYS_KEPT) this.days.delete([...this.days.keys()].sort()[0]!);
    }
    addInto((models[model] ??= zeroCounts()), delta);
  }

  get usage(): UsageTotals {
    const byModel: Record<string, TokenCounts> = {};
    for (const [model, counts] of Object.entries(this.totals)) byModel[model] = { ...counts };
    return { byModel };
  }
}

/** All models' tokens together. */
export function totalTokens(usage: UsageTotals): TokenCounts {
  const sum = zeroCounts();
  for (const counts of Object.values(usage.byModel)) addInto(sum, counts);
  return sum;
}

/** The estimated cost, from the price table (prices.ts). */
export function estimateCost(usage: UsageTotals): CostEstimate {
  let usd = 0;
  const unpricedModels: string[] = [];
  for (const [model, counts] of Object.entries(usage.byModel)) {
    const price = priceOf(model);
    if (!price) {
      unpricedModels.push(model);
      continue;
    }
    usd += (counts.input * price.input + counts.output * price.output + counts.cacheRead * price.cacheRead + counts.cacheWrite * price.cacheWrite) / 1e6;
  }
  return { usd, unpricedModels };
}

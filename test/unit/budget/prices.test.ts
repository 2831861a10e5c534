/**
 * The price arithmetic for every model in the price table, cache tiers included, against figures
 * worked out by hand from the table's USD-per-million prices: 1.2M input, 0.3M output, 2M cache
 * reads and 0.4M cache writes (5-minute), so the cost is 1.2·in + 0.3·out + 2·read + 0.4·write.
 */
import { describe, expect, it } from "vitest";
import { estimateCost, UsageLedger } from "../../../src/core/usage";
import { pricedModels } from "../../../src/core/usage/prices";

const COUNTS = { input: 1_200_000, output: 300_000, cacheRead: 2_000_000, cacheWrite: 400_000 };

// By hand: e.g. claude-sonnet-4-5 (3, 15, 3.75, 0.30): 3.6 + 4.5 + 0.6 + 1.5 = 10.20.
const BY_HAND: Record<string, number> = {
  "claude-3-5-haiku": 2.72, // 0.96 + 1.2 + 0.16 + 0.4
  "claude-haiku-4-5": 3.4, // 1.2 + 1.5 + 0.2 + 0.5
  "claude-haiku-5-5": 0.34, // 0.12 + 0.15 + 0.02 + 0.05
  "claude-3-5-sonnet": 10.2,
  "claude-3-7-sonnet": 10.2,
  "claude-sonnet-4": 10.2,
  "claude-sonnet-4-0": 10.2,
  "claude-sonnet-4-5": 10.2,
  "claude-sonnet-4-6": 10.2,
  "claude-sonnet-5": 6.8, // 2.4 + 3 + 0.4 + 1
  "claude-sonnet-5-5": 6.6, // 2.4 + 3 + 0.2 + 1
  "claude-opus-4": 51, // 18 + 22.5 + 3 + 7.5
  "claude-opus-4-0": 51,
  "claude-opus-4-1": 51,
  "claude-opus-4-5": 17, // 6 + 7.5 + 1 + 2.5
  "claude-opus-4-6": 17,
  "claude-opus-4-7": 17,
  "claude-opus-4-8": 17,
  "claude-opus-5": 17,
  "claude-opus-5-5": 13.2, // 4.8 + 6 + 0.4 + 2
  "claude-fable-5": 34, // 12 + 15 + 2 + 5
  "claude-fable-5-1": 32.5, // 12 + 15 + 0.5 + 5
  "claude-fable-5-2": 26, // 9.6 + 12 + 0.4 + 4
  "claude-mythos-5": 34,
  "claude-mythos-5-1": 32.5,
  "claude-mythos-5-2": 26,
};

describe("the price of every model in the table", () => {
  it("has a hand-worked figure for each model the table prices (a new model needs one)", () => {
    expect(Object.keys(BY_HAND).sort()).toEqual(pricedModels().sort());
  });

  for (const [model, usd] of Object.entries(BY_HAND)) {
    it(`${model}: $${usd} for 1.2M in, 0.3M out, 2M cache reads, 0.4M cache writes`, () => {
      const cost = estimateCost({ byModel: { [model]: COUNTS } });
      expect(cost.usd).toBeCloseTo(usd, 9);
      expect(cost.unpricedModels).toEqual([]);
    });
  }

  it("prices cache reads and cache writes at their own tiers, not at the input price", () => {
    // claude-sonnet-4-5: 1M cache reads = $0.30, 1M cache writes = $3.75, 1M input = $3.
    expect(estimateCost({ byModel: { "claude-sonnet-4-5": { input: 0, output: 0, cacheRead: 1e6, cacheWrite: 0 } } }).usd).toBeCloseTo(0.3, 9);
    expect(estimateCost({ byModel: { "claude-sonnet-4-5": { input: 0, output: 0, cacheRead: 0, cacheWrite: 1e6 } } }).usd).toBeCloseTo(3.75, 9);
  });

  it("a dated or regional id is priced as its model; an unknown model is unpriced, not $0", () => {
    const cost = estimateCost({
      byModel: { "claude-opus-4-1-20250805": COUNTS, "us.anthropic.claude-haiku-4-5-20251001-v1:0": COUNTS, "mystery-model": COUNTS },
    });
    expect(cost.usd).toBeCloseTo(51 + 3.4, 9);
    expect(cost.unpricedModels).toEqual(["mystery-model"]);
  });
});

describe("tokens by day (the day cap's figure)", () => {
  const reply = (id: string, timestamp: string, output: number) => ({
    type: "assistant",
    timestamp,
    message: { id, model: "claude-sonnet-4-5", usage: { input_tokens: 0, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  });

  it("counts each reply on the local day it was written, once per message", () => {
    const ledger = new UsageLedger();
    const yesterday = new Date(2026, 10, 27, 23, 50).toISOString();
    const today = new Date(2026, 10, 28, 0, 10).toISOString();
    ledger.add(reply("m1", yesterday, 1000));
    ledger.add(reply("m2", today, 10));
    ledger.add(reply("m2", today, 500)); // the same message, grown: counts 500 in all
    expect(ledger.usageOn("2026-11-27").byModel["claude-sonnet-4-5"]?.output).toBe(1000);
    expect(ledger.usageOn("2026-11-28").byModel["claude-sonnet-4-5"]?.output).toBe(500);
    expect(ledger.usage.byModel["claude-sonnet-4-5"]?.output).toBe(1500);
    expect(ledger.usageOn("2026-11-29").byModel).toEqual({});
  });
});

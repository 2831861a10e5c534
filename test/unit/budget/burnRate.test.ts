/** Burn rate: dollars per hour over the last 15 minutes, and when the cap is reached at that rate. */
import { describe, expect, it } from "vitest";
import { burnRate, capEtaText, keptSamples, rateText, timeToCap } from "../../../src/core/budget";

const MIN = 60_000;

describe("burn rate", () => {
  it("is what was spent over the span, per hour", () => {
    // $0.50 in 10 minutes = $3/h.
    expect(
      burnRate(
        [
          { at: 0, usd: 1 },
          { at: 10 * MIN, usd: 1.5 },
        ],
        10 * MIN,
      ),
    ).toBeCloseTo(3, 9);
  });

  it("measures only the last 15 minutes, from the spend at their start", () => {
    const samples = [
      { at: 0, usd: 0 },
      { at: 5 * MIN, usd: 10 }, // an expensive start, long ago
      { at: 30 * MIN, usd: 11 },
    ];
    // At 35 min the window starts at 20 min, where the spend was $10: $1 in 15 min = $4/h.
    expect(burnRate(samples, 35 * MIN)).toBeCloseTo(4, 9);
  });

  it("falls as an agent stops spending, and says nothing under a minute", () => {
    const samples = [
      { at: 0, usd: 0 },
      { at: 5 * MIN, usd: 1 },
    ];
    expect(burnRate(samples, 5 * MIN)).toBeCloseTo(12, 9);
    expect(burnRate(samples, 60 * MIN)).toBe(0);
    expect(
      burnRate(
        [
          { at: 0, usd: 0 },
          { at: 30_000, usd: 1 },
        ],
        30_000,
      ),
    ).toBeUndefined();
    expect(burnRate([], 0)).toBeUndefined();
  });

  it("says when the cap is reached", () => {
    // $2.50 left at $6/h: 25 minutes.
    expect(capEtaText(timeToCap(2.5, 5, 6))).toBe("at this rate the cap is reached in 25 min");
    expect(capEtaText(timeToCap(0, 19, 6))).toBe("at this rate the cap is reached in 3 h 10 min");
    expect(capEtaText(timeToCap(5, 5, 6))).toBe("the cap is reached");
    expect(timeToCap(1, 5, 0)).toBeUndefined();
    expect(capEtaText(undefined)).toBeUndefined();
    expect(rateText(3)).toBe("$3.00/h");
    expect(rateText(42.4)).toBe("$42/h");
  });

  it("keeps only the samples the window needs", () => {
    const samples = [0, 1, 2, 20, 30].map((m) => ({ at: m * MIN, usd: m }));
    expect(keptSamples(samples, 30 * MIN).map((s) => s.at / MIN)).toEqual([2, 20, 30]);
    expect(keptSamples([{ at: 0, usd: 0 }], 60 * MIN)).toEqual([{ at: 0, usd: 0 }]);
  });
});

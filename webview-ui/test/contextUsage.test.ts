import { describe, expect, it } from "vitest";
import { contextGauge, formatTokens } from "../src/contextUsage";

describe("context usage", () => {
  it.each([
    [0, "0"],
    [850, "850"],
    [123_456, "123k"],
    [200_000, "200k"],
    [999_400, "999k"],
    [999_600, "1M"],
    [1_250_000, "1.3M"],
  ])("%i tokens read as %s", (n, text) => expect(formatTokens(n)).toBe(text));

  it("turns to warning only past 80 %, and never draws past full", () => {
    expect(contextGauge({ usedTokens: 160_000, windowTokens: 200_000 })).toEqual({ percent: 80, warning: false, text: "160k of 200k tokens" });
    expect(contextGauge({ usedTokens: 160_001, windowTokens: 200_000 })?.warning).toBe(true);
    expect(contextGauge({ usedTokens: 250_000, windowTokens: 200_000 })).toMatchObject({ percent: 100, warning: true });
  });

  it("shows nothing without usage or a sensible window", () => {
    expect(contextGauge(null)).toBeNull();
    expect(contextGauge(undefined)).toBeNull();
    expect(contextGauge({ usedTokens: 10, windowTokens: 0 })).toBeNull();
    expect(contextGauge({ usedTokens: Number.NaN, windowTokens: 200_000 })).toBeNull();
  });
});

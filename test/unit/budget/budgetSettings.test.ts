/** The budget's settings as untrusted input: each refused value gets a message naming its setting; 0 pauses from the start. */
import { describe, expect, it } from "vitest";
import { dollars, readBudgetSettings } from "../../../src/core/budget";

describe("budget settings", () => {
  it("empty settings cap nothing and allow 5 sub-agents", () => {
    expect(readBudgetSettings({})).toEqual({ settings: { perAgentUsd: null, perDayUsd: null, perRaceUsd: null, maxSubagents: 5 }, problems: [] });
    expect(readBudgetSettings({ perAgent: null, perDay: "", maxSubagents: null }).problems).toEqual([]);
  });

  it("takes dollar caps, 0 included, and a sub-agent limit", () => {
    expect(readBudgetSettings({ perAgent: 5, perDay: 0, perRace: 0.5, maxSubagents: 2 })).toEqual({
      settings: { perAgentUsd: 5, perDayUsd: 0, perRaceUsd: 0.5, maxSubagents: 2 },
      problems: [],
    });
  });

  it.each([
    [{ perAgent: -1 }, "arcadia.budget.perAgent is -1: a cap cannot be negative"],
    [{ perAgent: "five" }, 'arcadia.budget.perAgent is "five", which is not a number'],
    [{ perDay: "20" }, 'arcadia.budget.perDay is "20", which is not a number'],
    [{ perRace: -0.5 }, "arcadia.budget.perRace is -0.5: a cap cannot be negative"],
    [{ perRace: "half" }, 'arcadia.budget.perRace is "half", which is not a number'],
    [{ perRace: 50_000 }, "arcadia.budget.perRace is 50000: more than $10000 is taken for a typo"],
    [{ perDay: 1e9 }, "arcadia.budget.perDay is 1000000000: more than $10000 is taken for a typo"],
    [{ perAgent: Number.POSITIVE_INFINITY }, "arcadia.budget.perAgent is Infinity"],
    [{ perAgent: Number.NaN }, "arcadia.budget.perAgent is NaN, which is not a number"],
    [{ perAgent: { usd: 5 } }, "arcadia.budget.perAgent is [object Object], which is not a number"],
    [{ maxSubagents: 2.5 }, "arcadia.budget.maxSubagents is 2.5: write a whole number from 0 to 100"],
    [{ maxSubagents: -3 }, "arcadia.budget.maxSubagents is -3"],
    [{ maxSubagents: 5000 }, "arcadia.budget.maxSubagents is 5000"],
  ])("refuses %o with a message naming the setting", (raw, message) => {
    const read = readBudgetSettings(raw);
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0]).toContain(message);
  });

  it("a refused setting caps nothing but the others still apply, and the message says what to write", () => {
    const read = readBudgetSettings({ perAgent: -5, perDay: 20, maxSubagents: "lots" });
    expect(read.settings).toEqual({ perAgentUsd: null, perDayUsd: 20, perRaceUsd: null, maxSubagents: 5 });
    expect(read.problems[0]).toContain("write a dollar amount such as 5, 0 to pause from the start, or leave it empty for no cap");
    expect(read.problems[1]).toContain("meanwhile 5 applies");
  });

  it('a spend under a cent reads as the card\'s header says it ("< $0.01"), never "$0.00" beside it', () => {
    expect(dollars(0.0036)).toBe("< $0.01");
    expect(dollars(0)).toBe("$0.00");
    expect(dollars(0.05)).toBe("$0.05");
    expect(dollars(1234.5)).toBe("$1,234.50");
  });
});

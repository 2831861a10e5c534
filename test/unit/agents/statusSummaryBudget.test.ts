/** The status bar on budgets: a paused agent stands out like a usage limit; each agent's burn rate and all agents' are in the tooltip. */
import { describe, expect, it } from "vitest";
import { statusSummary } from "../../../src/agents/cards/statusSummary";

const card = (name: string, budget: object | null) => ({ name, status: "waiting" as const, needsYou: null, limit: null, budget: budget as never });

describe("the status bar's budget", () => {
  it("says a paused agent in its text and stands out; rates go in the tooltip, with all agents' together", () => {
    const summary = statusSummary(
      [
        card("Agent #1", { paused: "Paused at budget — $5.02 of $5.00", spent: "$5.02 of $5.00", rate: "$9.00/h", eta: null, brake: null, group: null }),
        card("Agent #2", {
          paused: null,
          spent: "$1.20 of $5.00",
          rate: "$9.00/h",
          eta: "at this rate the cap is reached in 25 min",
          brake: null,
          group: null,
        }),
        card("Agent #3", null),
      ],
      "$18.00/h for all agents · today $6.22 of $20.00",
    );
    // Short in the bar (it is never cut), whole in the tooltip.
    expect(summary.text).toBe("0 working · 0 need you · $(watch) paused at budget");
    expect(summary.limited).toBe(true);
    expect(summary.tooltip).toContain("Agent #1: Paused at budget — $5.02 of $5.00");
    expect(summary.tooltip).toContain("Agent #2: $9.00/h · at this rate the cap is reached in 25 min");
    expect(summary.tooltip).toContain("Budget: $18.00/h for all agents · today $6.22 of $20.00");
    expect(summary.tooltip).not.toContain("Agent #3:");
  });
});

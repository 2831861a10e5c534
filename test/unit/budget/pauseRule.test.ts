/** The pause rule: an agent pauses at its cap or the day's, 0 pauses from the start, unknown cost is not taken as $0. */
import { describe, expect, it } from "vitest";
import { pausedLine, pauseReason, pauseVerdict } from "../../../src/core/budget";

const spent = (usd: number, complete = true) => ({ usd, complete });

describe("the pause rule", () => {
  it("runs under the cap, pauses at it and past it", () => {
    expect(pauseVerdict({ agent: spent(4.99), agentCapUsd: 5, day: spent(4.99), dayCapUsd: null })).toEqual({ paused: false });
    expect(pauseVerdict({ agent: spent(5), agentCapUsd: 5, day: undefined, dayCapUsd: null })).toMatchObject({ paused: true, scope: "agent" });
    expect(pauseVerdict({ agent: spent(5.02), agentCapUsd: 5, day: undefined, dayCapUsd: null })).toEqual({
      paused: true,
      scope: "agent",
      capUsd: 5,
      spentUsd: 5.02,
    });
  });

  it("no cap never pauses; a cap of 0 pauses from the start, even before anything is read", () => {
    expect(pauseVerdict({ agent: spent(1000), agentCapUsd: null, day: spent(1000), dayCapUsd: null })).toEqual({ paused: false });
    expect(pauseVerdict({ agent: undefined, agentCapUsd: 0, day: undefined, dayCapUsd: null })).toMatchObject({ paused: true, capUsd: 0 });
  });

  it("the day's cap pauses an agent under its own cap", () => {
    expect(pauseVerdict({ agent: spent(1), agentCapUsd: 5, day: spent(20.5), dayCapUsd: 20 })).toEqual({
      paused: true,
      scope: "day",
      capUsd: 20,
      spentUsd: 20.5,
    });
  });

  it("a raised cap lets the agent go on", () => {
    expect(pauseVerdict({ agent: spent(5.02), agentCapUsd: 10, day: undefined, dayCapUsd: null })).toEqual({ paused: false });
  });

  it("a cost partly unknown pauses once its known part reaches the cap", () => {
    expect(pauseVerdict({ agent: spent(4, false), agentCapUsd: 5, day: undefined, dayCapUsd: null })).toEqual({ paused: false });
    expect(pauseVerdict({ agent: spent(6, false), agentCapUsd: 5, day: undefined, dayCapUsd: null })).toMatchObject({ paused: true });
  });

  it("says it as the model reads it and as the card shows it", () => {
    const verdict = { paused: true as const, scope: "agent" as const, capUsd: 5, spentUsd: 5.0234 };
    expect(pauseReason(verdict)).toBe("Arcadia: this agent reached its $5.00 budget. Stop and wait; the user can raise it.");
    expect(pausedLine(verdict)).toBe("Paused at budget — $5.02 of $5.00");
    expect(pausedLine({ ...verdict, scope: "day", capUsd: 20, spentUsd: 20.4 })).toBe("Paused at budget — $20.40 of today's $20.00");
  });
});

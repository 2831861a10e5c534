/** The pause rule: an agent pauses at its cap, its race's or the day's (the lower of its own and its race's wins), 0 pauses from the start, unknown cost is not taken as $0. */
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

  it("a race's cap pauses a member under its own cap; with both reached the lower cap is the one said", () => {
    const race = (usd: number | undefined, capUsd: number | null) => ({
      kind: "race" as const,
      name: "fix-title",
      spend: usd === undefined ? undefined : spent(usd),
      capUsd,
    });
    const under = { agent: spent(0.2), agentCapUsd: 1, day: undefined, dayCapUsd: null };
    expect(pauseVerdict({ ...under, group: race(0.49, 0.5) })).toEqual({ paused: false });
    expect(pauseVerdict({ ...under, group: race(0.52, 0.5) })).toEqual({
      paused: true,
      scope: "group",
      group: { kind: "race", name: "fix-title" },
      capUsd: 0.5,
      spentUsd: 0.52,
    });
    expect(pauseVerdict({ ...under, group: race(0.52, null) })).toEqual({ paused: false });
    expect(pauseVerdict({ ...under, group: race(undefined, 0) })).toMatchObject({ paused: true, scope: "group", capUsd: 0 });
    // Its own cap lower than the race's: its own holds it first, and is the one said when both are reached.
    const own = { agent: spent(0.3), agentCapUsd: 0.3, day: undefined, dayCapUsd: null };
    expect(pauseVerdict({ ...own, group: race(0.4, 0.5) })).toMatchObject({ scope: "agent", capUsd: 0.3 });
    expect(pauseVerdict({ ...own, group: race(0.6, 0.5) })).toMatchObject({ scope: "agent", capUsd: 0.3 });
    expect(pauseVerdict({ agent: spent(1.1), agentCapUsd: 1, group: race(0.6, 0.5), day: undefined, dayCapUsd: null })).toMatchObject({
      scope: "group",
      capUsd: 0.5,
    });
  });

  it("says a race's pause as the model reads it and as the card shows it", () => {
    const verdict = { paused: true as const, scope: "group" as const, group: { kind: "race" as const, name: "fix-title" }, capUsd: 0.5, spentUsd: 0.5234 };
    expect(pauseReason(verdict)).toBe("Arcadia: the agents of this race (fix-title) reached their $0.50 budget. Stop and wait; the user can raise it.");
    expect(pausedLine(verdict)).toBe("Paused at the race's budget — $0.52 of $0.50");
  });
});

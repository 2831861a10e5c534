/** The spawn-rate alarm: more than 40 tool calls a minute for 3 minutes on end raises one notice per episode. */
import { describe, expect, it } from "vitest";
import { SpawnAlarm } from "../../../src/agents/budget/spawnAlarm";
import { recentCalls, runningAway } from "../../../src/core/budget";

const MIN = 60_000;
/** `n` calls spread over the minute starting at `start`. */
const minuteOf = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + Math.floor((i * MIN) / n));

describe("running away", () => {
  it("takes more than 40 calls in each of the last 3 minutes", () => {
    const busy = [...minuteOf(0, 41), ...minuteOf(MIN, 41), ...minuteOf(2 * MIN, 41)];
    const end = 3 * MIN - 1; // just before the first call leaves the window
    expect(runningAway(busy, end)).toBe(true);
    // 40 is not more than 40; one quiet minute breaks it; a burst in one minute is not three.
    expect(runningAway([...minuteOf(0, 41), ...minuteOf(MIN, 40), ...minuteOf(2 * MIN, 41)], end)).toBe(false);
    expect(runningAway(minuteOf(2 * MIN, 500), end)).toBe(false);
    expect(recentCalls([0, MIN, 2.5 * MIN, 3.5 * MIN], 4 * MIN)).toEqual([2.5 * MIN, 3.5 * MIN]);
  });

  it("the alarm is told once while it lasts, and again after the rate fell", () => {
    let now = 0;
    const alarm = new SpawnAlarm(() => now);
    const told: string[] = [];
    alarm.onDidAlarm((n) => told.push(`${n.agentId}: ${n.what}`));
    const calls = (start: number, n: number) => minuteOf(start, n).forEach((at) => ((now = at), alarm.called("a1")));
    calls(0, 45);
    calls(MIN, 45);
    expect(told).toEqual([]);
    calls(2 * MIN, 45);
    calls(3 * MIN, 45);
    expect(told).toEqual(["a1: more than 40 tool calls a minute for 3 minutes"]);
    calls(4 * MIN, 5); // the rate falls
    calls(5 * MIN, 45);
    calls(6 * MIN, 45);
    calls(7 * MIN, 45);
    expect(told).toHaveLength(2);
  });
});

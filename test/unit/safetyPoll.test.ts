/**
 * The one safety poll behind every watched folder (util/safetyPoll.ts): quiet folders are looked
 * at less and less often, all on shared wake-ups, and anything that happens brings the poll back
 * to its base rate. ManualClock: an hour passes in milliseconds.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/util/clock";
import { SafetyPoll } from "../../src/core/util/safetyPoll";

const HOUR = 3_600_000;
const flush = () => new Promise((r) => setImmediate(r));

/** Moves the clock a second at a time (checks resolve in between, as they would). */
async function pass(clock: ManualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    clock.advance(1000);
    await flush();
  }
}

describe("SafetyPoll", () => {
  it("looks at a quiet folder ~120 times an hour, not 3,600: the interval doubles up to 30 s", async () => {
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock });
    const at: number[] = [];
    poll.add(async () => (at.push(clock.now()), false));
    await pass(clock, HOUR);
    expect(at.slice(0, 6)).toEqual([1000, 3000, 7000, 15000, 31000, 61000]);
    expect(at.length).toBeGreaterThan(100);
    expect(at.length).toBeLessThanOrEqual(130);
  });

  it("20 quiet folders share their wake-ups", async () => {
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock });
    const wakeUps = new Set<number>();
    let checks = 0;
    for (let i = 0; i < 20; i++) {
      await pass(clock, 137); // added at different moments, as agents are
      poll.add(async () => (checks++, wakeUps.add(clock.now()), false));
    }
    await pass(clock, HOUR);
    expect(checks).toBeLessThanOrEqual(20 * 130);
    // One member's worth of wake-ups (plus the first few, before their intervals line up).
    expect(wakeUps.size).toBeLessThanOrEqual(160);
  });

  it("comes back to its base rate after a poke (a file event) or a check that found something", async () => {
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock });
    const at: number[] = [];
    let finds = 0;
    const check = poll.add(async () => (at.push(clock.now()), finds-- > 0));
    await pass(clock, 10 * 60_000); // backed off to 30 s
    const quietGap = (at.at(-1) as number) - (at.at(-2) as number);
    expect(quietGap).toBe(30_000);
    const pokedAt = clock.now();
    check.poke();
    await pass(clock, 1000);
    expect(at.at(-1)).toBe(pokedAt + 1000);
    // That check found nothing (next in 2 s); checks that find something keep the base rate.
    finds = 3;
    const before = at.length;
    await pass(clock, 5000);
    expect(at.slice(before).map((t, i, all) => t - (all[i - 1] ?? (at[before - 1] as number)))).toEqual([2000, 1000, 1000, 1000]);
  });

  it("does not check a member whose watch keeps reporting events; checks it a second after the last one", async () => {
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock });
    const at: number[] = [];
    const check = poll.add(async () => (at.push(clock.now()), true)); // a working agent: its checks say so
    // A write every 400 ms for ten seconds, each reported by the watch (and read by the look that follows).
    for (let t = 0; t < 10_000; t += 400) {
      check.heard();
      clock.advance(400);
      await flush();
    }
    expect(at).toEqual([]);
    const lastHeard = clock.now() - 400;
    await pass(clock, 2000);
    expect(at[0]).toBe(lastHeard + 1000);
  });

  it("has no timer without members, and none once they are gone", async () => {
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock });
    expect(clock.nextTimerIn()).toBeUndefined();
    let checks = 0;
    const a = poll.add(async () => (checks++, false));
    const b = poll.add(async () => {
      throw new Error("a failing check counts as finding nothing");
    });
    expect(poll.scheduled).toBe(true);
    await pass(clock, 5000);
    a.dispose();
    b.dispose();
    expect(poll.scheduled).toBe(false);
    expect(clock.nextTimerIn()).toBeUndefined();
    const seen = checks;
    await pass(clock, 60_000);
    expect(checks).toBe(seen);
  });
});

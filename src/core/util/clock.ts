/**
 * Time as a dependency, so that every timer in the engine can be driven by tests and by replay
 * without sleeping on the wall clock.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    // Timers must never keep a CLI or the extension host alive on their own.
    timer.unref?.();
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * The system's timers on a monotonic time (performance.now()): for intervals only, never for a
 * date. The wall clock steps (NTP, a laptop waking, a user's change): a poll that kept its due
 * times in wall time found nothing due for an hour after a step back of an hour.
 */
export const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: systemClock.setTimeout,
};

/** The clock to measure intervals on: the monotonic one in place of the system's (tests keep theirs). */
export function intervalClock(clock: Clock | undefined): Clock {
  return clock === undefined || clock === systemClock ? monotonicClock : clock;
}

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const entry: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.pending.push(entry);
    return { cancel: () => void (entry.cancelled = true) };
  }

  /** Moves time forward, running every timer that falls due on the way, in order. */
  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.time = Math.max(this.time, next.at);
      next.cancelled = true;
      next.fn();
    }
    this.time = Math.max(this.time, target);
  }

  /** Runs timers until none is left (timers may schedule more; bounded to stop runaway loops). */
  runAll(maxTimers = 10_000): void {
    for (let i = 0; i < maxTimers; i++) {
      const next = this.nextDue(Number.POSITIVE_INFINITY);
      if (!next) return;
      this.time = Math.max(this.time, next.at);
      next.cancelled = true;
      next.fn();
    }
  }

  /** Time until the next timer fires, undefined when none is set: lets a test show that nothing is
   * scheduled soon, instead of sleeping on the wall clock and seeing nothing happen. */
  nextTimerIn(): number | undefined {
    const next = this.nextDue(Number.POSITIVE_INFINITY);
    return next ? next.at - this.time : undefined;
  }

  /** Moves the clock to an external time (e.g. a record's timestamp during replay), never backwards. */
  set(time: number): void {
    this.advanceTo(time);
  }

  private nextDue(limit: number): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.pending) {
      if (p.cancelled || p.at > limit) continue;
      if (!best || p.at < best.at || (p.at === best.at && p.seq < best.seq)) best = p;
    }
    this.pending = this.pending.filter((p) => !p.cancelled);
    return best;
  }
}

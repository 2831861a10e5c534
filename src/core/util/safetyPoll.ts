/**
 * The safety net behind file watching, one for all watched folders: a check (a stat or two) that
 * finds what a lost file event would have announced, on one timer for everybody, backing off while
 * nothing happens.
 *
 * Why: each follower once polled every second on a timer of its own (a sub-agent folder stat, a
 * transcript stat, the promises between): 20 quiet agents cost 1 % of a core all day, and a
 * laptop on battery paid it. Native events announce nearly every change; the check is for the
 * platforms that lose some (WSL2 on Windows drives, network drives). So:
 * - each member's interval starts at `baseMs` and doubles after every check that finds nothing,
 *   up to `maxMs`;
 * - a member whose watch reports events (`heard()`) is checked `baseMs` after the last one, not
 *   before: the look that follows an event reads all a check would;
 * - `poke()` (a file event came, or a pass found something) brings it back to `baseMs`: while an
 *   agent works, a lost event is found within a second, as before; the first one after a long
 *   quiet spell within `maxMs`;
 * - an owner whose agent works (a turn under way, a tool open, its status file busy) says its check
 *   found something (watchedFolder.ts): a working agent is looked at every `baseMs`, only an idle
 *   one backs off;
 * - times are monotonic (clock.ts monotonicClock), never the wall clock, which steps;
 * - one timer, for the member due first; members due within half their interval of it are checked
 *   on the same wake-up, so backed-off members share their wake-ups; no member, no timer.
 */
import { type Clock, intervalClock, monotonicClock, systemClock, type TimerHandle } from "./clock";
import type { Disposable } from "./emitter";

export const SAFETY_POLL_BASE_MS = 1000;
export const SAFETY_POLL_MAX_MS = 30_000;

export interface SafetyPollOptions {
  clock?: Clock;
  /** The interval after activity (default 1 s). */
  baseMs?: number;
  /** The longest interval, reached after a quiet spell (default 30 s). */
  maxMs?: number;
}

/** One member's registration. */
export interface SafetyCheck extends Disposable {
  /** Something happened (a file event, a pass that found news): the next check comes after `baseMs`. */
  poke(): void;
  /**
   * The member's watch reported an event (so it is alive), and a look follows that reads all a check
   * would: the next check comes `baseMs` after this, not before. A folder written to more often than
   * that is not checked at all (at fifty working agents the checks were a third of the stats), one
   * whose events stop is checked within `baseMs` of the last.
   */
  heard(): void;
}

interface Member {
  /** Resolves true when it found something (then the interval starts again from `baseMs`). */
  check: () => Promise<boolean>;
  intervalMs: number;
  dueAt: number;
  checking: boolean;
  /** Poked while its check ran: as good as a check that found something. */
  poked: boolean;
  gone: boolean;
}

export class SafetyPoll {
  private readonly members = new Set<Member>();
  private timer: TimerHandle | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly clock: Clock;
  readonly baseMs: number;
  readonly maxMs: number;
  /** Checks made so far (for tests and the soak: how often quiet members are looked at). */
  checks = 0;

  constructor(opts: SafetyPollOptions = {}) {
    // Due times are monotonic: after the wall clock stepped back an hour, nothing was due for an hour.
    this.clock = intervalClock(opts.clock);
    this.baseMs = opts.baseMs ?? SAFETY_POLL_BASE_MS;
    this.maxMs = Math.max(this.baseMs, opts.maxMs ?? SAFETY_POLL_MAX_MS);
  }

  /** Members now (the soak counts them). */
  get size(): number {
    return this.members.size;
  }

  /** Whether a wake-up is scheduled (none without members). */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Adds a check, first due after `baseMs`. A check should never reject (one that does counts as finding nothing). */
  add(check: () => Promise<boolean>): SafetyCheck {
    const member: Member = { check, intervalMs: this.baseMs, dueAt: this.clock.now() + this.baseMs, checking: false, poked: false, gone: false };
    this.members.add(member);
    this.arm();
    return {
      poke: () => {
        if (member.gone) return;
        member.poked = true;
        member.intervalMs = this.baseMs;
        const due = this.clock.now() + this.baseMs;
        if (due < member.dueAt) {
          member.dueAt = due;
          this.arm();
        }
      },
      heard: () => {
        if (member.gone) return;
        member.poked = true;
        member.intervalMs = this.baseMs;
        member.dueAt = this.clock.now() + this.baseMs;
        // Later than the timer: it wakes for another member or finds nothing due and sets itself again.
        if (member.dueAt < this.timerAt) this.arm();
      },
      dispose: () => {
        member.gone = true;
        this.members.delete(member);
        this.arm();
      },
    };
  }

  /** The timer follows the member due first (or is cancelled when there is none). */
  private arm(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const m of this.members) if (!m.checking && m.dueAt < next) next = m.dueAt;
    if (next === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = this.clock.setTimeout(() => this.wake(), Math.max(0, next - this.clock.now()));
  }

  private wake(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    for (const m of this.members) {
      // Due, or due soon enough to share this wake-up: more checks, never fewer.
      if (!m.checking && m.dueAt - now <= m.intervalMs / 2) this.run(m);
    }
    this.arm();
  }

  private run(member: Member): void {
    member.checking = true;
    member.poked = false;
    this.checks++;
    void member
      .check()
      .catch(() => false)
      .then((found) => {
        member.checking = false;
        if (member.gone) return;
        member.intervalMs = found || member.poked ? this.baseMs : Math.min(this.maxMs, member.intervalMs * 2);
        member.dueAt = this.clock.now() + member.intervalMs;
        this.arm();
      });
  }
}

let shared: SafetyPoll | undefined;

/** The process's one safety poll on the system clock (followers and project folders share it). */
export function sharedSafetyPoll(): SafetyPoll {
  shared ??= new SafetyPoll();
  return shared;
}

/**
 * The poll for a folder whose checks run on `clock`: the shared one for the system clock at the
 * default rate, else one of its own (a test's manual clock, a rate of its own).
 */
export function safetyPollFor(clock: Clock, baseMs?: number): SafetyPoll {
  return (clock === systemClock || clock === monotonicClock) && baseMs === undefined ? sharedSafetyPoll() : new SafetyPoll({ clock, baseMs });
}

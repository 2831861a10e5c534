/**
 * The spawn-rate alarm's rule: an agent that made more than M tool calls in each of the last K
 * minutes is running away (a loop, a fan-out of sub-agents). Pure over the calls' times.
 *
 * The defaults are reasoned, not measured: every tool call waits for a model reply of a few
 * seconds, so one agent working alone makes ~5–20 calls a minute; 40 a minute for 3 minutes on
 * end takes parallel sub-agents calling tools together or a tight loop. (The recordings in
 * test/fixtures are scripted, seconds long: they say nothing of real rates.)
 */
export const ALARM_CALLS_PER_MINUTE = 40;
export const ALARM_MINUTES = 3;
const MINUTE = 60_000;

/** Whether each of the `minutes` minutes before `now` holds more than `perMinute` of `times` (ms, ascending). */
export function runningAway(times: readonly number[], now: number, perMinute = ALARM_CALLS_PER_MINUTE, minutes = ALARM_MINUTES): boolean {
  const counts = new Array<number>(minutes).fill(0);
  for (const at of times) {
    const ago = now - at;
    if (ago < 0 || ago >= minutes * MINUTE) continue;
    counts[Math.floor(ago / MINUTE)]!++;
  }
  return counts.every((n) => n > perMinute);
}

/** The times worth keeping: the alarm's window only. */
export function recentCalls(times: readonly number[], now: number, minutes = ALARM_MINUTES): number[] {
  const from = now - minutes * MINUTE;
  const first = times.findIndex((at) => at > from);
  return first === -1 ? [] : times.slice(first);
}

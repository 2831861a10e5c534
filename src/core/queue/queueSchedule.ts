/**
 * Which task starts next, and why none does: the first task in line (list order, held ones
 * skipped) once a slot is free, unless the user paused the queue or starting one more agent would
 * pass a budget cap, or its base branch is gone (each comes in as a reason, so the queue says why it waits).
 * And the queue on one line for the panel: "Queue: 7 waiting · 3 running · 12 done · 1 needs you".
 */
import { slotsTaken } from "./queue";
import type { Queue, QueueTask, TaskState } from "./queueTypes";

export interface StartGates {
  /** Why no task can start from the base (it is gone: queueDisk's baseGoneHold), or undefined. */
  baseHold?: string;
  /** Why one more agent would pass a budget cap now (e.g. "today's $20.00 budget is reached"), or undefined. */
  budgetHold?: string;
}

export type NextStart = { start: QueueTask } | { start: null; why: string };

export function nextStart(queue: Queue, gates: StartGates = {}): NextStart {
  const next = queue.tasks.find((t) => t.state === "waiting");
  if (!next) {
    const held = queue.tasks.filter((t) => t.state === "held").length;
    return { start: null, why: held > 0 ? `Nothing to start: ${held === 1 ? "the task left is" : `the ${held} tasks left are`} paused.` : "Nothing waits." };
  }
  if (queue.paused) return { start: null, why: "The queue is paused: resume it to start the next task." };
  if (gates.baseHold) return { start: null, why: gates.baseHold };
  const taken = slotsTaken(queue);
  if (taken >= queue.parallel) return { start: null, why: `${taken} of ${queue.parallel} agents at work: the next task starts when one finishes.` };
  if (gates.budgetHold) return { start: null, why: `Paused at budget: ${gates.budgetHold}. The next task starts once the cap is raised.` };
  return { start: next };
}

/** Why nothing new starts, when the user should hear it (paused by them, or by the budget); undefined while the queue just waits on slots. */
export function queueHold(queue: Queue, gates: StartGates = {}): string | undefined {
  if (!queue.tasks.some((t) => t.state === "waiting")) return undefined;
  if (queue.paused) return "paused";
  if (gates.baseHold) return "base branch gone";
  if (gates.budgetHold) return "paused at budget";
  return undefined;
}

const PARTS: readonly [string, readonly TaskState[]][] = [
  ["waiting", ["waiting", "held"]],
  ["running", ["starting", "running"]],
  ["done", ["done"]],
  ["needs you", ["needsYou"]],
  ["failed", ["failed"]],
];

/** "Queue: 7 waiting · 3 running · 12 done · 1 needs you" (counts of 0 left out; cancelled tasks are not counted; why it waits at the end). */
export function queueSummary(queue: Queue, gates: StartGates = {}): string {
  const parts = PARTS.map(([words, states]) => [queue.tasks.filter((t) => states.includes(t.state)).length, words] as const)
    .filter(([count]) => count > 0)
    .map(([count, words]) => `${count} ${words}`);
  const hold = queueHold(queue, gates);
  if (hold) parts.push(hold);
  return parts.length === 0 ? "Queue: empty" : `Queue: ${parts.join(" · ")}`;
}

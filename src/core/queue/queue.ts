/**
 * The queue's moves, as pure functions: each takes a queue and returns the next one, or throws
 * an Error whose message is the user's words for why not (a click on a task that moved on meanwhile,
 * a second agent for one task). Nothing here runs anything: the agents layer does each step and
 * records it here first, so a reload between two steps finds the last fact saved.
 */
import { modelNameProblem, typedTextProblem } from "../launch";
import { DEFAULT_PARALLEL, FINISHED_STATES, MAX_PARALLEL, MIN_PARALLEL, type Queue, type QueueTask, SLOT_STATES, type TaskState } from "./queueTypes";

export interface NewTask {
  text: string;
  model?: string | null;
}

export function newQueue(repo: string, base: string, parallel = DEFAULT_PARALLEL): Queue {
  return { repo, base, parallel: clampParallel(parallel), paused: false, tasks: [], nextNumber: 1 };
}

/** A setting out of range (0, 50, 2.5, NaN) is taken to the nearest count that makes sense, never refused. */
export function clampParallel(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_PARALLEL;
  return Math.min(MAX_PARALLEL, Math.max(MIN_PARALLEL, Math.floor(value)));
}

/**
 * Adds tasks at the end of the line. Each must type as it reads (core/launch's typed-text rule):
 * the queue types it unattended, so a task file an agent could have written (`- [ ] !curl … | sh`
 * would be a shell command run unasked) is refused here too, whatever the command checked before;
 * so is a model that is not a model's name (it goes on the CLI's command line).
 */
export function addTasks(queue: Queue, tasks: readonly NewTask[]): Queue {
  tasks.forEach((t, i) => {
    const problem = typedTextProblem(t.text) ?? (t.model ? modelNameProblem(t.model) : undefined);
    if (problem) throw new Error(`Task ${i + 1} (${taskLabel(t)}) was not queued: ${problem}`);
  });
  let number = queue.nextNumber;
  const added: QueueTask[] = tasks.map((t) => ({
    id: `q${number++}`,
    text: t.text,
    model: t.model ?? null,
    state: "waiting",
    start: null,
    problem: null,
    output: null,
    endedAt: null,
    earlier: [],
  }));
  return { ...queue, tasks: [...queue.tasks, ...added], nextNumber: number };
}

export function setParallel(queue: Queue, parallel: number): Queue {
  return { ...queue, parallel: clampParallel(parallel) };
}

export const taskOf = (queue: Queue, id: string): QueueTask | undefined => queue.tasks.find((t) => t.id === id);
export const holdsSlot = (task: Pick<QueueTask, "state">) => SLOT_STATES.includes(task.state);
export const isFinished = (task: Pick<QueueTask, "state">) => FINISHED_STATES.includes(task.state);
export const slotsTaken = (queue: Queue) => queue.tasks.filter(holdsSlot).length;

const STATE_WORDS: Record<TaskState, string> = {
  waiting: "waiting",
  held: "paused",
  starting: "starting",
  running: "running",
  needsYou: "waiting for you",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** A short quote of the task for messages: its first words. */
export function taskLabel(task: Pick<QueueTask, "text">): string {
  const words = task.text.trim();
  return words.length > 40 ? `"${words.slice(0, 39)}…"` : `"${words}"`;
}

function change(queue: Queue, id: string, allowed: readonly TaskState[], doing: string, next: (t: QueueTask) => QueueTask): Queue {
  const task = taskOf(queue, id);
  if (!task) throw new Error(`That task is no longer in the queue: nothing to ${doing}.`);
  if (!allowed.includes(task.state)) throw new Error(`Task ${taskLabel(task)} is ${STATE_WORDS[task.state]}: it cannot be ${doingPast(doing)}.`);
  return { ...queue, tasks: queue.tasks.map((t) => (t.id === id ? next(t) : t)) };
}

const PAST: Record<string, string> = { cancel: "cancelled", retry: "retried", "set up": "set up", run: "run", mark: "marked done" };
const doingPast = (doing: string) => PAST[doing] ?? (doing.endsWith("e") ? `${doing}d` : `${doing}ed`);

/** Moves a task still in line to `index` among all tasks (clamped): the line starts in the order of the list. */
export function moveTask(queue: Queue, id: string, index: number): Queue {
  const task = taskOf(queue, id);
  if (!task) throw new Error("That task is no longer in the queue: nothing to move.");
  if (task.state !== "waiting" && task.state !== "held") throw new Error(`Task ${taskLabel(task)} is ${STATE_WORDS[task.state]}: only a task in line moves.`);
  const rest = queue.tasks.filter((t) => t.id !== id);
  const at = Math.min(rest.length, Math.max(0, Math.floor(index)));
  return { ...queue, tasks: [...rest.slice(0, at), task, ...rest.slice(at)] };
}

export const pauseQueue = (queue: Queue): Queue => ({ ...queue, paused: true });
export const resumeQueue = (queue: Queue): Queue => ({ ...queue, paused: false });

/** Holds one task in line: the next ones start before it until it is resumed. */
export const holdTask = (queue: Queue, id: string) => change(queue, id, ["waiting"], "pause", (t) => ({ ...t, state: "held" }));
export const resumeTask = (queue: Queue, id: string) => change(queue, id, ["held"], "resume", (t) => ({ ...t, state: "waiting" }));

/** Cancels a task in line or under way (its agent is the agents layer's to stop; its worktree is kept). */
export function cancelTask(queue: Queue, id: string, now: number): Queue {
  return change(queue, id, ["waiting", "held", "starting", "running", "needsYou"], "cancel", (t) => ({ ...t, state: "cancelled", endedAt: now }));
}

/** The user says it is done (its agent's work is what they wanted, committed or not). */
export function markDone(queue: Queue, id: string, now: number): Queue {
  return change(queue, id, ["running", "needsYou"], "mark", (t) => ({ ...t, state: "done", problem: null, endedAt: now }));
}

/**
 * A failed task back in line, at the front of what waits (it was first before), to start in a new
 * worktree: the failed attempt's worktree and branch are kept, named in `earlier`, never reused.
 */
export function retryTask(queue: Queue, id: string): Queue {
  const task = taskOf(queue, id);
  const problem = task && typedTextProblem(task.text);
  if (problem) throw new Error(`Task ${taskLabel(task)} cannot run again as it is: ${problem}`);
  const retried = change(queue, id, ["failed", "cancelled"], "retry", (t) => ({
    ...t,
    state: "waiting",
    start: null,
    problem: null,
    output: null,
    endedAt: null,
    earlier: t.start ? [...t.earlier, { worktree: t.start.worktree, problem: t.problem ?? "cancelled" }] : t.earlier,
  }));
  const firstInLine = retried.tasks.findIndex((t) => t.id !== id && (t.state === "waiting" || t.state === "held"));
  return firstInLine < 0
    ? retried
    : moveTask(
        retried,
        id,
        Math.min(
          firstInLine,
          retried.tasks.findIndex((t) => t.id === id),
        ),
      );
}

// ——— The steps of a start, each recorded before it is taken ———

/** The task leaves the line and takes a slot; its worktree's name is bound before the worktree is made. */
export function beginStart(queue: Queue, id: string, at: { worktree: string; commit: string; now: number }): Queue {
  const task = taskOf(queue, id);
  if (task?.state === "waiting" && slotsTaken(queue) >= queue.parallel)
    throw new Error(`All ${queue.parallel} slots are taken: the task waits for one to free.`);
  return change(queue, id, ["waiting"], "start", (t) => ({
    ...t,
    state: "starting",
    start: { worktree: at.worktree, commit: at.commit, setupDone: false, agentId: null, typed: false, startedAt: at.now },
  }));
}

function changeStart(queue: Queue, id: string, doing: string, next: (s: NonNullable<QueueTask["start"]>) => NonNullable<QueueTask["start"]>): Queue {
  return change(queue, id, ["starting"], doing, (t) => ({ ...t, start: next(t.start!) }));
}

export const setupFinished = (queue: Queue, id: string) => changeStart(queue, id, "set up", (s) => ({ ...s, setupDone: true }));

/** Its agent was launched: one agent per task, so a second launch is refused whatever the first became. */
export function agentLaunched(queue: Queue, id: string, agentId: string): Queue {
  const task = taskOf(queue, id);
  if (task?.start?.agentId) throw new Error(`Task ${taskLabel(task)} has its agent already: a second would do its work twice.`);
  return changeStart(queue, id, "launch", (s) => ({ ...s, agentId }));
}

/**
 * Its agent's terminal did not come back after a reload, the task never typed at it: the task may
 * have an agent of its own (no key reached the first, so its work is still done once).
 */
export function agentNotBack(queue: Queue, id: string): Queue {
  const task = taskOf(queue, id);
  if (task?.start?.typed) throw new Error(`Task ${taskLabel(task)} was typed already: it is never typed twice.`);
  return changeStart(queue, id, "launch again", (s) => ({ ...s, agentId: null }));
}

/** Saved before the first key is typed: from here on the task is never typed again, whatever happens. */
export function aboutToType(queue: Queue, id: string): Queue {
  const task = taskOf(queue, id);
  if (task?.start && !task.start.agentId) throw new Error(`Task ${taskLabel(task)} has no agent to type it at.`);
  if (task?.start?.typed) throw new Error(`Task ${taskLabel(task)} was typed already: it is never typed twice.`);
  return changeStart(queue, id, "type", (s) => ({ ...s, typed: true }));
}

// ——— What its agent does (from its card) ———

/** Before its task is typed, what its agent does is not the task's state (it may be starting up, or asking to trust its folder). */
function notTypedYet(queue: Queue, id: string, why: string): void {
  const task = taskOf(queue, id);
  if (task?.start && !task.start.typed) throw new Error(`Task ${taskLabel(task)} is not typed yet: ${why}.`);
}

/** Its agent works on it (taken after typing, or back at work after the user answered). */
export function agentWorking(queue: Queue, id: string): Queue {
  notTypedYet(queue, id, "its agent works on something else");
  return change(queue, id, ["starting", "running", "needsYou"], "run", (t) => ({ ...t, state: "running", problem: null }));
}

/** Its agent waits for the user (a permission prompt, a question): it keeps its slot and shows under "needs you". */
export function agentNeedsYou(queue: Queue, id: string, why: string): Queue {
  notTypedYet(queue, id, "what its agent asks is the start's to handle (its readiness)");
  return change(queue, id, ["starting", "running", "needsYou"], "pause", (t) => ({ ...t, state: "needsYou", problem: why }));
}

/** Its agent's turn ended: done when its work is committed, else it needs the user (look, then mark done or answer). */
export function turnEnded(queue: Queue, id: string, committed: boolean, now: number): Queue {
  if (committed) return change(queue, id, ["running", "needsYou"], "finish", (t) => ({ ...t, state: "done", problem: null, endedAt: now }));
  return agentNeedsYou(queue, id, "Its turn ended without its work committed: look at it, then mark it done or answer its agent.");
}

/** A step failed (worktree, set-up, launch, typing, its agent gone): that task stops with why and what it printed; the queue goes on. */
export function taskFailed(queue: Queue, id: string, problem: string, now: number, output: string | null = null): Queue {
  return change(queue, id, ["starting", "running", "needsYou"], "fail", (t) => ({ ...t, state: "failed", problem, output, endedAt: now }));
}

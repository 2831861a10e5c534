/**
 * A queue as it is kept (VS Code's workspace state), read back leniently: a record written by
 * another version, by hand or cut short keeps every task it can and says what it could not read —
 * never a throw, never a task silently dropped. A task whose record says it left the line but not
 * where to (no worktree) is failed with why, never started again: it may have been typed already.
 */
import { isPlainRef, worktreeNameProblem } from "../git";
import { typedTextProblem } from "../launch";
import { clampParallel } from "./queue";
import { type EarlierAttempt, type Queue, type QueueTask, SLOT_STATES, type TaskStart, type TaskState } from "./queueTypes";

const STATES: readonly TaskState[] = ["waiting", "held", "starting", "running", "needsYou", "done", "failed", "cancelled"];
const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isState = (v: unknown): v is TaskState => STATES.includes(v as TaskState);

export interface ReadQueue {
  queue: Queue | null;
  /** One line per thing that could not be read as it was, in the user's words. */
  problems: string[];
}

export const serializeQueue = (queue: Queue): string => JSON.stringify(queue);

export function readQueue(raw: unknown): ReadQueue {
  let value = raw;
  if (isString(raw)) {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      return { queue: null, problems: [`The saved queue is not JSON (${(err as Error).message}): it was not restored.`] };
    }
  }
  if (value === undefined || value === null) return { queue: null, problems: [] };
  if (!isObject(value) || !isString(value.repo) || !isString(value.base) || !isPlainRef(value.base) || !Array.isArray(value.tasks))
    return { queue: null, problems: ["The saved queue has no repository, base branch or task list: it was not restored."] };
  const problems: string[] = [];
  const tasks: QueueTask[] = [];
  const ids = new Set<string>();
  const agents = new Set<string>();
  value.tasks.forEach((item, i) => {
    const task = readTask(item);
    if (!task) return problems.push(`Saved task ${i + 1} has no id or text: it was left out.`);
    if (ids.has(task.id)) return problems.push(`Saved task ${i + 1} repeats the id ${task.id}: it was left out.`);
    ids.add(task.id);
    const agentId = task.start?.agentId;
    if (agentId && agents.has(agentId) && SLOT_STATES.includes(task.state)) {
      problems.push(`Saved task ${task.id} names the agent of another task: it was failed, not given a second agent.`);
      tasks.push({ ...task, state: "failed", problem: "Its saved record named another task's agent.", start: { ...task.start!, agentId: null } });
      return;
    }
    if (agentId) agents.add(agentId);
    tasks.push(task);
  });
  const highest = Math.max(0, ...tasks.map((t) => Number(/^q(\d+)$/.exec(t.id)?.[1] ?? 0)));
  const nextNumber = isNumber(value.nextNumber) && value.nextNumber > highest ? Math.floor(value.nextNumber) : highest + 1;
  const parallel = clampParallel(isNumber(value.parallel) ? value.parallel : NaN);
  return { queue: { repo: value.repo, base: value.base, parallel, paused: value.paused === true, tasks, nextNumber }, problems };
}

function readStart(raw: unknown): TaskStart | null {
  // The name becomes a path and a branch, the commit an argument to git: only what they may be.
  if (!isObject(raw) || !isString(raw.worktree) || worktreeNameProblem(raw.worktree) || !isString(raw.commit) || !isPlainRef(raw.commit)) return null;
  return {
    worktree: raw.worktree,
    commit: raw.commit,
    setupDone: raw.setupDone === true,
    agentId: isString(raw.agentId) && raw.agentId !== "" ? raw.agentId : null,
    // Anything but an explicit false is taken as typed: a task is never typed twice on a doubt.
    typed: raw.typed !== false,
    startedAt: isNumber(raw.startedAt) ? raw.startedAt : 0,
  };
}

function readTask(raw: unknown): QueueTask | undefined {
  if (!isObject(raw) || !isString(raw.id) || raw.id === "" || !isString(raw.text)) return undefined;
  const start = readStart(raw.start);
  let state: TaskState = isState(raw.state) ? raw.state : start ? "failed" : "waiting";
  let problem = isString(raw.problem) ? raw.problem : null;
  if (!isState(raw.state)) problem = `Its saved state (${String(raw.state)}) was not one Arcadia knows${start ? ": retry it to run it again" : ""}.`;
  const textProblem = typedTextProblem(raw.text);
  if (textProblem && (state === "waiting" || state === "held")) {
    // Workspace state edited behind Arcadia's back: a task that would not type as it reads never starts.
    state = "failed";
    problem = `Its saved text would not be typed as it reads: ${textProblem}`;
  }
  if (!start && state !== "waiting" && state !== "held" && state !== "cancelled" && state !== "done" && state !== "failed") {
    // It left the line but its record lost where it went: it may have been typed, so it is not started again unasked.
    state = "failed";
    problem = "Its saved record lost its worktree: retry it to run it again.";
  }
  const earlier = Array.isArray(raw.earlier)
    ? raw.earlier
        .filter((e): e is EarlierAttempt => isObject(e) && isString(e.worktree) && isString(e.problem))
        .map((e) => ({ worktree: e.worktree, problem: e.problem }))
    : [];
  return {
    id: raw.id,
    text: raw.text,
    model: isString(raw.model) ? raw.model : null,
    state,
    start: state === "waiting" || state === "held" ? null : start,
    problem,
    output: isString(raw.output) ? raw.output : null,
    endedAt: isNumber(raw.endedAt) ? raw.endedAt : null,
    earlier,
  };
}

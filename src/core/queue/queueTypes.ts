/**
 * What a queue is: tasks in the order they start, each with its state and the worktree and agent
 * bound to it, at most `parallel` of them holding a slot at once. Plain data (JSON as it is), so
 * the whole queue is saved in workspace state and read back after a reload or a restart.
 */

/**
 * `waiting`: in line. `held`: in line, but the user paused this task (skipped until resumed).
 * `starting`: its slot is taken; its worktree, set-up, agent and typing are under way.
 * `running`: its agent works on it. `needsYou`: its agent waits for the user (a permission
 * prompt, a question, a turn ended without its work committed) and keeps its slot.
 * `done`, `failed`, `cancelled`: its slot is free.
 */
export type TaskState = "waiting" | "held" | "starting" | "running" | "needsYou" | "done" | "failed" | "cancelled";

/** The states that hold one of the `parallel` slots. */
export const SLOT_STATES: readonly TaskState[] = ["starting", "running", "needsYou"];
export const FINISHED_STATES: readonly TaskState[] = ["done", "failed", "cancelled"];

/** What a task was on when it stopped being in line: each step's fact is saved before the step is taken. */
export interface TaskStart {
  /** Its worktree's name (`.claude/worktrees/<name>`, branch `worktree-<name>`), bound before it is made. */
  worktree: string;
  /** The base's commit it was made from. */
  commit: string;
  /** The setup command finished (or there was none). */
  setupDone: boolean;
  /** Its agent's card, once launched: one agent per task, never a second. */
  agentId: string | null;
  /** Saved before the first key of the task is typed: never typed again once true. */
  typed: boolean;
  startedAt: number;
}

/** An earlier attempt, kept when a failed task is retried: its worktree and branch are the user's to look at. */
export interface EarlierAttempt {
  worktree: string;
  problem: string;
}

export interface QueueTask {
  /** `q1`, `q2`…: never reused within a queue. */
  id: string;
  /** What is typed at the agent's prompt, as the user wrote it. */
  text: string;
  /** `--model`, or null: the default. */
  model: string | null;
  state: TaskState;
  /** Set once it left the line (kept after it finished: its worktree and agent stay its own). */
  start: TaskStart | null;
  /** Why it failed, or why it needs the user; null otherwise. */
  problem: string | null;
  /** A failed step's output (the setup command's last lines), for the task's details. */
  output: string | null;
  endedAt: number | null;
  earlier: EarlierAttempt[];
}

export interface Queue {
  /** The main checkout. */
  repo: string;
  /** The branch every task's worktree is made from (and is landed into). */
  base: string;
  /** At most this many tasks hold a slot at once (`arcadia.queue.parallel`). */
  parallel: number;
  /** The user paused the whole queue: nothing new starts; what runs goes on. */
  paused: boolean;
  tasks: QueueTask[];
  /** The next task's number (`q<n>`). */
  nextNumber: number;
}

export const MIN_PARALLEL = 1;
export const MAX_PARALLEL = 10;
export const DEFAULT_PARALLEL = 3;

/**
 * What the queue tab shows (src/agents/queue/queueView.ts makes it): the queue's line and why it
 * waits, and each task in order — its words, state, agent, time, cost, files, predicted merge, and
 * which buttons apply to it now.
 */
export type QueueTaskState = "waiting" | "held" | "starting" | "running" | "needsYou" | "done" | "failed" | "cancelled";

export interface QueueTaskView {
  id: string;
  text: string;
  /** The `--model` its agent runs on; null: the default. */
  model: string | null;
  state: QueueTaskState;
  /** "running", "waiting for you", "failed"… */
  stateWords: string;
  /** Its agent's card, while there is one. */
  agent: { id: string; name: string } | null;
  /** Its worktree's name (`.claude/worktrees/<name>`), once it left the line. */
  worktree: string | null;
  /** ms since the epoch: when it left the line, and when it finished. */
  startedAt: number | null;
  endedAt: number | null;
  /** "$0.42", once its agent's session was read. */
  cost: string | null;
  /** Files its branch changed since its base commit (null: not started, or not read). */
  files: number | null;
  /** "merges cleanly", "conflicts in src/App.tsx", "landed"; null: nothing to merge yet. */
  merge: string | null;
  /** Why it failed or needs you. */
  problem: string | null;
  /** The end of a failed step's output (the setup command's). */
  output: string | null;
  can: { moveUp: boolean; moveDown: boolean; cancel: boolean; retry: boolean; markDone: boolean };
}

export interface QueueView {
  /** "Queue: 7 waiting · 3 running · 12 done · 1 needs you". */
  line: string;
  base: string;
  repo: string;
  parallel: number;
  paused: boolean;
  /** Why nothing new starts, when it is news (paused, base gone, budget). */
  why: string | null;
  tasks: QueueTaskView[];
}

/**
 * The queue tab's view (src/shared/queueViews.ts) from the queue, its line, its agents' cards and
 * each task's figures read from git (`taskFigures`: the files its branch changed, and how it would
 * merge into the base now — `git merge-tree` as Merge… predicts — or that it landed already).
 */
import { runGit, nulFields, predictMerge } from "../../core/git";
import { holdsSlot, type Queue, type QueueTask } from "../../core/queue";
import { dollars } from "../../core/budget";
import type { QueueTaskView, QueueView } from "../../shared/queueViews";

export interface TaskFigures {
  files: number;
  merge: string;
}

const STATE_WORDS: Record<QueueTask["state"], string> = {
  waiting: "waiting",
  held: "paused",
  starting: "starting",
  running: "running",
  needsYou: "needs you",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** What git says of a task's branch now; undefined before it has one (or once it is gone). */
export async function taskFigures(queue: Queue, task: QueueTask): Promise<TaskFigures | undefined> {
  if (!task.start) return undefined;
  const tip = await runGit(queue.repo, ["rev-parse", "--verify", "-q", `refs/heads/worktree-${task.start.worktree}^{commit}`]);
  if (tip.code !== 0) return undefined;
  const commit = tip.stdout.trim();
  const changed = await runGit(queue.repo, ["diff", "--name-only", "-z", `${task.start.commit}...${commit}`]);
  const files = changed.code === 0 ? nulFields(changed.stdout).length : 0;
  if (commit === task.start.commit) return { files, merge: "nothing committed yet" };
  if ((await runGit(queue.repo, ["merge-base", "--is-ancestor", commit, `refs/heads/${queue.base}`])).code === 0)
    return { files, merge: `landed in ${queue.base}` };
  const prediction = await predictMerge(queue.repo, `refs/heads/${queue.base}`, commit).catch(() => undefined);
  if (!prediction) return { files, merge: "no prediction (git could not merge these)" };
  return { files, merge: prediction.clean ? "merges cleanly" : `conflicts in ${prediction.conflicts.join(", ")}` };
}

export interface QueueViewInputs {
  line: string | null;
  why: string | undefined;
  agent(agentId: string): { name: string; costUsd: number | null } | undefined;
  figures(taskId: string): TaskFigures | undefined;
}

export function queueView(queue: Queue | null, inputs: QueueViewInputs): QueueView | null {
  if (!queue) return null;
  const inLine = (t: QueueTask) => t.state === "waiting" || t.state === "held";
  const line = queue.tasks.map((t, i) => ({ t, i })).filter(({ t }) => inLine(t));
  const tasks = queue.tasks.map((task, i): QueueTaskView => {
    const agent = task.start?.agentId ? inputs.agent(task.start.agentId) : undefined;
    const figures = inputs.figures(task.id);
    const place = line.findIndex((l) => l.i === i);
    return {
      id: task.id,
      text: task.text,
      model: task.model,
      state: task.state,
      stateWords: STATE_WORDS[task.state],
      agent: agent && task.start?.agentId ? { id: task.start.agentId, name: agent.name } : null,
      worktree: task.start?.worktree ?? null,
      startedAt: task.start?.startedAt ?? null,
      endedAt: task.endedAt,
      cost: agent?.costUsd !== null && agent?.costUsd !== undefined ? dollars(agent.costUsd) : null,
      files: figures?.files ?? null,
      merge: figures?.merge ?? null,
      problem: task.problem,
      output: task.output,
      can: {
        moveUp: place > 0,
        moveDown: place >= 0 && place < line.length - 1,
        cancel: inLine(task) || holdsSlot(task),
        retry: task.state === "failed" || task.state === "cancelled",
        markDone: task.state === "running" || task.state === "needsYou",
      },
    };
  });
  return {
    line: inputs.line ?? "Queue: empty",
    base: queue.base,
    repo: queue.repo,
    parallel: queue.parallel,
    paused: queue.paused,
    why: inputs.why ?? null,
    tasks,
  };
}

/**
 * After a reload or a restart: each task under way, from the facts its record saved (worktree
 * bound, set-up done, agent launched, task typed — each saved before its step was taken) and what
 * is there now (its worktree on disk, its agent's card), what to do so that no task is lost and
 * none is typed twice:
 *   not typed, worktree gone          → back in line where it was (nothing of it ran);
 *   not typed, worktree, no set-up    → set it up again, launch, type;
 *   not typed, set up, no agent       → launch, type;
 *   not typed, agent here             → type once it is ready;
 *   typed, agent here                 → follow it, as before (running, if it took its prompt while starting);
 *   typed, agent here, no prompt taken (or not known) → the window closed between "typed" saved and the keys
 *                                       reaching the CLI: its words may sit in the CLI's box, so
 *                                       Enter alone is pressed there (never the words again): taken,
 *                                       it runs; else it needs you (TYPING_CUT);
 *   typed, agent gone, worktree here  → reopen its session (`claude --continue`) and ask the user
 *                                       to tell it to go on: its words are never typed again;
 *   typed, worktree gone              → failed, with its branch named when it is kept.
 * Waiting, held and finished tasks stay as they are.
 */
import type { Queue, QueueTask } from "./queueTypes";

/** What is there now for a task under way. */
export interface TaskFacts {
  worktree: boolean;
  branch: boolean;
  /** Its card is here (bound, or reconnecting after a reload). */
  agent: boolean;
  /** Its agent's session took a prompt (its transcript exists); undefined when that cannot be told. */
  prompted?: boolean;
}

export type Resume = "lineAgain" | "setup" | "launch" | "type" | "follow" | "continueSession" | "enterAgain";

export interface Restored {
  queue: Queue;
  /** The work for the agents layer, task by task, in queue order. */
  resumes: { id: string; resume: Resume }[];
}

export const TYPING_CUT =
  "The window closed while its task was being typed, and its agent did not take it when Enter was pressed again. " +
  "Look at its terminal: type the task there if its box is empty.";

export const CONTINUED =
  "The window closed while its agent worked: its session was reopened in its worktree (its task is not typed again). Tell it to go on, or mark it done.";

export function restoreQueue(queue: Queue, factsOf: (task: QueueTask) => TaskFacts, now: number): Restored {
  const resumes: Restored["resumes"] = [];
  const tasks = queue.tasks.map((task): QueueTask => {
    const start = task.start;
    if (!start || (task.state !== "starting" && task.state !== "running" && task.state !== "needsYou")) return task;
    const facts = factsOf(task);
    const agentHere = facts.agent && start.agentId !== null;
    if (!start.typed) {
      if (!facts.worktree) {
        resumes.push({ id: task.id, resume: "lineAgain" });
        return { ...task, state: "waiting", start: null, problem: null };
      }
      const resume = agentHere ? "type" : start.setupDone ? "launch" : "setup";
      resumes.push({ id: task.id, resume });
      // An agent gone before it was typed at is forgotten, so the one launched now is its only agent.
      return { ...task, state: "starting", start: agentHere ? start : { ...start, agentId: null } };
    }
    // Not known to have taken it (its transcript not there, or its card still reconnecting): Enter
    // alone, once it is at its prompt; an agent seen working or done meanwhile is simply followed.
    if (agentHere && task.state === "starting" && facts.prompted !== true) {
      // Still starting (its slot held) while Enter is pressed; the runner says what came of it.
      resumes.push({ id: task.id, resume: "enterAgain" });
      return task;
    }
    if (agentHere) {
      resumes.push({ id: task.id, resume: "follow" });
      // Its turn began before the window closed: a starting task whose agent took its words is running.
      return task.state === "starting" && facts.prompted === true ? { ...task, state: "running" } : task;
    }
    if (facts.worktree) {
      resumes.push({ id: task.id, resume: "continueSession" });
      return { ...task, state: "needsYou", start: { ...start, agentId: null }, problem: CONTINUED };
    }
    const kept = facts.branch ? `; its branch worktree-${start.worktree} is kept` : "";
    return { ...task, state: "failed", problem: `Its worktree ${start.worktree} was removed while the window was closed${kept}.`, endedAt: now };
  });
  return { queue: { ...queue, tasks }, resumes };
}

/** Its session was reopened (`continueSession`): the new card is its agent, the only one. */
export function sessionReopened(queue: Queue, id: string, agentId: string): Queue {
  return {
    ...queue,
    tasks: queue.tasks.map((t) => {
      if (t.id !== id) return t;
      if (!t.start || !t.start.typed || t.start.agentId) throw new Error(`Task ${id} has no session to reopen, or has its agent already.`);
      return { ...t, start: { ...t.start, agentId } };
    }),
  };
}

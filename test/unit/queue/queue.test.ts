/**
 * The queue's model as a user meets it: at most K agents at once, the next in line (in order, held
 * ones skipped) starting when a slot frees, an agent waiting on a permission keeping its slot,
 * reorder, pause and resume (the queue and one task), cancel, retry, mark done, the budget's
 * pause said in words, never two agents for one task, and the one-line summary.
 */
import { describe, expect, it } from "vitest";
import {
  aboutToType,
  addTasks,
  agentLaunched,
  agentNeedsYou,
  agentWorking,
  beginStart,
  cancelTask,
  holdTask,
  markDone,
  moveTask,
  newQueue,
  nextStart,
  pauseQueue,
  type Queue,
  queueSummary,
  resumeQueue,
  resumeTask,
  retryTask,
  setParallel,
  setupFinished,
  taskFailed,
  taskOf,
  turnEnded,
} from "../../../src/core/queue";

const texts = (q: Queue, state?: string) => q.tasks.filter((t) => !state || t.state === state).map((t) => t.text);

function queueOf(count: number, parallel = 2): Queue {
  return addTasks(
    newQueue("/repo", "main", parallel),
    Array.from({ length: count }, (_, i) => ({ text: `task ${i + 1}` })),
  );
}

/** Runs the next task through every start step to "running", as the agents layer would. */
function startNext(q: Queue, gates = {}): Queue {
  const next = nextStart(q, gates);
  if (!next.start) throw new Error(next.why);
  const id = next.start.id;
  let out = beginStart(q, id, { worktree: `w-${id}`, commit: "abc123", now: 0 });
  out = setupFinished(out, id);
  out = agentLaunched(out, id, `agent-${id}`);
  out = aboutToType(out, id);
  return agentWorking(out, id);
}

const idOf = (q: Queue, text: string) => q.tasks.find((t) => t.text === text)!.id;

describe("the queue", () => {
  it("never runs more than K at once, and starts the next in line when a slot frees", () => {
    let q = startNext(startNext(queueOf(4, 2)));
    expect(texts(q, "running")).toEqual(["task 1", "task 2"]);
    const full = nextStart(q);
    expect(full.start).toBeNull();
    expect(!full.start && full.why).toBe("2 of 2 agents at work: the next task starts when one finishes.");
    expect(() => beginStart(q, idOf(q, "task 3"), { worktree: "x", commit: "abc", now: 0 })).toThrow("All 2 slots are taken");
    q = turnEnded(q, idOf(q, "task 1"), true, 10);
    expect(taskOf(q, idOf(q, "task 1"))!.state).toBe("done");
    q = startNext(q);
    expect(texts(q, "running")).toEqual(["task 2", "task 3"]);
  });

  it("keeps the slot of an agent that asks for permission, and shows it under needs you", () => {
    let q = startNext(startNext(queueOf(3, 2)));
    q = agentNeedsYou(q, idOf(q, "task 1"), "It asks to run npm install.");
    expect(nextStart(q).start).toBeNull();
    expect(queueSummary(q)).toBe("Queue: 1 waiting · 1 running · 1 needs you");
    q = agentWorking(q, idOf(q, "task 1"));
    expect(queueSummary(q)).toBe("Queue: 1 waiting · 2 running");
  });

  it("counts a turn ended without its work committed as needing the user, not done", () => {
    let q = startNext(queueOf(1, 1));
    q = turnEnded(q, "q1", false, 5);
    expect(taskOf(q, "q1")!.state).toBe("needsYou");
    expect(taskOf(q, "q1")!.problem).toMatch(/without its work committed/);
    q = markDone(q, "q1", 6);
    expect(queueSummary(q)).toBe("Queue: 1 done");
  });

  it("says the summary as the panel shows it", () => {
    let q = setParallel(queueOf(23, 4), 4);
    for (let i = 0; i < 12; i++) {
      q = startNext(q);
      q = turnEnded(q, q.tasks.find((t) => t.state === "running")!.id, true, i);
    }
    q = startNext(startNext(startNext(startNext(q))));
    q = agentNeedsYou(q, q.tasks.find((t) => t.state === "running")!.id, "permission");
    expect(queueSummary(q)).toBe("Queue: 7 waiting · 3 running · 12 done · 1 needs you");
    expect(queueSummary(newQueue("/r", "main"))).toBe("Queue: empty");
  });

  it("starts in the order the user set, skipping a held task until it is resumed", () => {
    let q = queueOf(4, 1);
    q = moveTask(q, idOf(q, "task 4"), 0);
    q = holdTask(q, idOf(q, "task 4"));
    expect(nextStart(q).start?.text).toBe("task 1");
    q = resumeTask(q, idOf(q, "task 4"));
    expect(nextStart(q).start?.text).toBe("task 4");
    q = moveTask(q, idOf(q, "task 3"), 99);
    expect(texts(q)).toEqual(["task 4", "task 1", "task 2", "task 3"]);
    q = startNext(q);
    expect(() => moveTask(q, idOf(q, "task 4"), 3)).toThrow(/is running: only a task in line moves/);
  });

  it("starts nothing while the queue is paused, and says so; what runs goes on", () => {
    let q = startNext(queueOf(3, 2));
    q = pauseQueue(q);
    const held = nextStart(q);
    expect(!held.start && held.why).toBe("The queue is paused: resume it to start the next task.");
    expect(queueSummary(q)).toBe("Queue: 2 waiting · 1 running · paused");
    expect(taskOf(q, "q1")!.state).toBe("running");
    q = resumeQueue(q);
    expect(nextStart(q).start?.text).toBe("task 2");
  });

  it("starts nothing while one more agent would pass a budget cap, and says why", () => {
    const q = queueOf(2, 2);
    const gates = { budgetHold: "today's $20.00 budget is reached ($20.40 spent)" };
    const held = nextStart(q, gates);
    expect(!held.start && held.why).toBe("Paused at budget: today's $20.00 budget is reached ($20.40 spent). The next task starts once the cap is raised.");
    expect(queueSummary(q, gates)).toBe("Queue: 2 waiting · paused at budget");
    expect(nextStart(q, {}).start?.text).toBe("task 1");
  });

  it("frees the slot of a failed task with its output, goes on with the next, and retries it first in a new worktree", () => {
    let q = queueOf(3, 1);
    q = beginStart(q, "q1", { worktree: "w-q1", commit: "abc", now: 0 });
    q = taskFailed(q, "q1", "Its setup failed (exit 1).", 3, "npm ERR! missing script");
    expect(taskOf(q, "q1")).toMatchObject({ state: "failed", output: "npm ERR! missing script" });
    expect(nextStart(q).start?.text).toBe("task 2");
    q = startNext(q);
    q = retryTask(q, "q1");
    const retried = taskOf(q, "q1")!;
    expect(retried).toMatchObject({ state: "waiting", start: null, problem: null });
    expect(retried.earlier).toEqual([{ worktree: "w-q1", problem: "Its setup failed (exit 1)." }]);
    expect(texts(q, "waiting")).toEqual(["task 1", "task 3"]);
  });

  it("cancels a task in line or at work, frees its slot, and refuses to cancel what is done", () => {
    let q = startNext(queueOf(3, 1));
    q = cancelTask(q, "q1", 1);
    expect(nextStart(q).start?.text).toBe("task 2");
    q = cancelTask(q, "q3", 2);
    q = startNext(q);
    q = turnEnded(q, "q2", true, 3);
    expect(() => cancelTask(q, "q2", 4)).toThrow('Task "task 2" is done: it cannot be cancelled.');
    expect(() => markDone(q, "q9", 4)).toThrow("That task is no longer in the queue");
  });

  it("never gives one task two agents, and never types it twice", () => {
    let q = queueOf(1, 1);
    q = beginStart(q, "q1", { worktree: "w", commit: "abc", now: 0 });
    expect(() => beginStart(q, "q1", { worktree: "w2", commit: "abc", now: 0 })).toThrow("is starting: it cannot be started");
    expect(() => aboutToType(q, "q1")).toThrow("has no agent to type it at");
    q = agentLaunched(q, "q1", "a1");
    expect(() => agentLaunched(q, "q1", "a2")).toThrow("has its agent already");
    q = aboutToType(q, "q1");
    expect(() => aboutToType(q, "q1")).toThrow("was typed already");
    expect(taskOf(q, "q1")!.start).toMatchObject({ agentId: "a1", typed: true });
  });

  it("does not take an agent's work for the task before the task was typed", () => {
    let q = queueOf(1, 1);
    q = beginStart(q, "q1", { worktree: "w", commit: "abc", now: 0 });
    q = agentLaunched(q, "q1", "a1");
    expect(() => agentWorking(q, "q1")).toThrow("is not typed yet");
  });

  it("takes a parallel setting out of range to the nearest that makes sense", () => {
    expect(newQueue("/r", "main", 0).parallel).toBe(1);
    expect(setParallel(newQueue("/r", "main"), 50).parallel).toBe(10);
    expect(setParallel(newQueue("/r", "main"), Number.NaN).parallel).toBe(3);
    expect(setParallel(newQueue("/r", "main"), 2.7).parallel).toBe(2);
  });

  it("lowering K stops nothing that runs; the next starts once fewer than K are at work", () => {
    let q = startNext(startNext(startNext(queueOf(4, 3))));
    q = setParallel(q, 1);
    expect(texts(q, "running")).toHaveLength(3);
    q = turnEnded(q, "q1", true, 1);
    q = turnEnded(q, "q2", true, 1);
    expect(nextStart(q).start).toBeNull();
    q = turnEnded(q, "q3", true, 1);
    expect(nextStart(q).start?.text).toBe("task 4");
  });
});

/**
 * A window reloaded mid-queue (a new book and runner over the same saved state, the old cards
 * back or gone): every task picks up where its last saved fact left it. A task typed with its agent
 * back is followed, never typed again; a task typed whose agent is gone has its session reopened
 * (`--continue`), never typed again, and asks the user to tell it to go on; a task not typed yet
 * is typed once; a task whose typing the reload cut gets Enter alone; nothing is lost and the queue
 * goes on to the tasks in line.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTINUED, type Queue, taskOf, TYPING_CUT } from "../../../src/core/queue";
import { addTasks, newQueue } from "../../../src/core/queue";
import { git } from "../../support/gitRepo";
import { memoryQueueStore, queueRepo, queueWorld } from "../../support/queueWorld";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("the queue across a reload", () => {
  it("loses no task and types none twice", async () => {
    const repo = queueRepo(tempDir());
    const store = memoryQueueStore();
    const before = queueWorld(repo, { store, autoReady: false });
    const tasks = ["Add a footer", "Fix the title", "Write the changelog", "Rename the app"].map((text) => ({ text }));
    await before.book.set(addTasks(newQueue(repo, "main", 3), tasks));
    await before.runner.pump();
    await before.until((q) => q.tasks.filter((t) => t.start?.agentId).length === 3 && q, "three agents launched");
    before.ready("agent-1");
    before.ready("agent-2");
    await before.until((q) => taskOf(q, "q2")!.state === "running" && taskOf(q, "q1")!.state === "running" && q, "two typed");
    expect(before.typed()).toEqual(["type agent-1: Add a footer", "type agent-2: Fix the title"]);
    // The window reloads: agent-1's card comes back, agent-2's terminal is gone, agent-3 (not typed at) is gone too.
    before.follow.dispose();
    const after = queueWorld(repo, { store, agentsHere: ["agent-1"], firstAgent: 10 });
    await after.runner.resume();
    await after.until((q) => taskOf(q, "q3")!.state === "running" && q, "the third typed at its new agent");
    const queue = after.book.queue!;
    expect(taskOf(queue, "q1")).toMatchObject({ state: "running", start: { agentId: "agent-1", typed: true } });
    expect(taskOf(queue, "q2")).toMatchObject({ state: "needsYou", problem: CONTINUED, start: { agentId: "agent-10", typed: true } });
    expect(after.events.filter((e) => e.startsWith("launch"))).toEqual([
      `launch agent-10 in .claude/worktrees/${taskOf(queue, "q2")!.start!.worktree} --continue`,
      `launch agent-11 in .claude/worktrees/${taskOf(queue, "q3")!.start!.worktree}`,
    ]);
    // Only the task never typed is typed, once; the fourth waits for a slot.
    expect(after.typed()).toEqual(["type agent-11: Write the changelog"]);
    expect(taskOf(queue, "q4")!.state).toBe("waiting");
    after.finish("agent-1", "footer.txt");
    await after.until((q) => taskOf(q, "q4")!.state === "running" && q, "the fourth running");
    expect(after.typed()).toEqual(["type agent-11: Write the changelog", "type agent-12: Rename the app"]);
  });

  it("gives a task never typed whose agent's terminal never comes back (opened moments before the reload) an agent of its own, typed once", async () => {
    const repo = queueRepo(tempDir());
    const store = memoryQueueStore();
    const before = queueWorld(repo, { store, autoReady: false });
    await before.book.set(addTasks(newQueue(repo, "main", 2), [{ text: "Add a footer" }, { text: "Fix the title" }]));
    await before.runner.pump();
    await before.until((q) => q.tasks.filter((t) => t.start?.agentId).length === 2 && q, "two agents launched");
    before.ready("agent-1");
    await before.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first typed");
    before.follow.dispose();
    // Both cards come back; agent-2's terminal never will (VS Code saved no layout with it).
    const after = queueWorld(repo, { store, agentsHere: ["agent-1", "agent-2"], notBack: ["agent-2"], firstAgent: 10 });
    await after.runner.resume();
    await after.until((q) => taskOf(q, "q2")!.state === "running" && q, "the second typed at an agent of its own");
    expect(after.events.filter((e) => e.startsWith("launch"))).toEqual([`launch agent-10 in .claude/worktrees/${taskOf(after.book.queue!, "q2")!.start!.worktree}`]);
    expect(after.typed()).toEqual(["type agent-10: Fix the title"]);
    expect(taskOf(after.book.queue!, "q2")).toMatchObject({ start: { agentId: "agent-10", typed: true } });
  });

  it("finds a task whose agent finished while the window was closed: done once its work is committed, and the next starts", async () => {
    const repo = queueRepo(tempDir());
    const store = memoryQueueStore();
    const before = queueWorld(repo, { store });
    await before.book.set(addTasks(newQueue(repo, "main", 1), [{ text: "Add a footer" }, { text: "Fix the title" }]));
    await before.runner.pump();
    await before.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first running");
    before.follow.dispose();
    // While the window is closed its agent commits and its turn ends: no event will tell the new window.
    const worktree = join(repo, ".claude/worktrees", taskOf(before.book.queue!, "q1")!.start!.worktree);
    writeFileSync(join(worktree, "footer.txt"), "footer\n");
    git(worktree, "add", "-A");
    git(worktree, "commit", "-q", "-m", "footer");
    const after = queueWorld(repo, { store, agentsHere: ["agent-1"], firstAgent: 10 });
    after.cards.set("agent-1", { ...after.cards.get("agent-1")!, status: "waiting", lastTurn: "completed" });
    await after.runner.resume();
    expect(taskOf(after.book.queue!, "q1")!.state).toBe("running");
    await after.follow.settle();
    await after.until((q) => taskOf(q, "q2")!.state === "running" && q, "the second running");
    expect(taskOf(after.book.queue!, "q1")!.state).toBe("done");
    expect(after.typed()).toEqual(["type agent-10: Fix the title"]);
  });

  /** One task typed at agent-1, then the window closed as if before the keys reached the CLI: saved "typed", still "starting". */
  async function typingCut(repo: string) {
    const store = memoryQueueStore();
    const before = queueWorld(repo, { store });
    await before.book.set(addTasks(newQueue(repo, "main", 1), [{ text: "Add a footer" }, { text: "Fix the title" }]));
    await before.runner.pump();
    await before.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first typed");
    before.follow.dispose();
    const saved = store.kept() as Queue;
    await store.save({ ...saved, tasks: saved.tasks.map((t) => (t.id === "q1" ? { ...t, state: "starting" } : t)) });
    return store;
  }

  it("presses Enter alone for a task whose typing the reload cut (its words may sit in the box): taken, it runs; its words are never typed again", async () => {
    const repo = queueRepo(tempDir());
    const store = await typingCut(repo);
    const after = queueWorld(repo, { store, agentsHere: ["agent-1"], firstAgent: 10, prompted: () => false });
    await after.runner.resume();
    await after.until((q) => taskOf(q, "q1")!.state === "running" && q, "the cut task running");
    expect(after.typed()).toEqual(["type agent-1: "]);
    // It held its slot throughout: the second task did not start beside it.
    expect(taskOf(after.book.queue!, "q2")!.state).toBe("waiting");
  });

  it("asks the user about a task whose typing the reload cut when Enter starts nothing (an empty box), and never types its words", async () => {
    const repo = queueRepo(tempDir());
    const store = await typingCut(repo);
    const after = queueWorld(repo, { store, agentsHere: ["agent-1"], firstAgent: 10, prompted: () => false, emptyBox: ["agent-1"] });
    await after.runner.resume();
    await after.until((q) => taskOf(q, "q1")!.state === "needsYou" && q, "the cut task needing the user");
    expect(taskOf(after.book.queue!, "q1")!.problem).toBe(TYPING_CUT);
    expect(after.typed().every((t) => t === "type agent-1: ")).toBe(true);
  });

  it("gives a task whose worktree's making the reload cut (before its .worktreeinclude files) those files before it is set up again", async () => {
    const repo = queueRepo(tempDir());
    const store = memoryQueueStore();
    const before = queueWorld(repo, { store });
    await before.book.set(addTasks(newQueue(repo, "main", 1), [{ text: "Add a footer" }]));
    await before.runner.pump();
    await before.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first typed");
    before.follow.dispose();
    // As the window found it: `git worktree add` done, the window closed before the copy and the set-up.
    const saved = store.kept() as Queue;
    const worktree = join(repo, ".claude/worktrees", saved.tasks[0]!.start!.worktree);
    rmSync(join(worktree, ".env"));
    const cut = saved.tasks.map((t) => ({ ...t, state: "starting" as const, start: { ...t.start!, setupDone: false, agentId: null, typed: false } }));
    await store.save({ ...saved, tasks: cut });
    const after = queueWorld(repo, { store, firstAgent: 10 });
    await after.runner.resume();
    await after.until((q) => taskOf(q, "q1")!.state === "running" && q, "the task set up again and typed");
    expect(readFileSync(join(worktree, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(after.typed()).toEqual(["type agent-10: Add a footer"]);
  });
});

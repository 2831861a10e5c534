/**
 * The queue at work on a real git repository with a real setup command; fakes only for the agents
 * (what claude does). At most K agents at once, each in its own worktree from the base with the
 * `.env` its `.worktreeinclude` names and the setup's marker; a task typed once, and only once its
 * claude is ready; done when its turn ends with its work committed; a permission prompt keeps its
 * slot ("needs you"); an exit or a failing setup stops that task with why, and the queue goes on;
 * a budget cap or a deleted base holds the queue with why.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addTasks, cancelTask, newQueue, queueSummary, taskOf } from "../../../src/core/queue";
import { git } from "../../support/gitRepo";
import { queueRepo, queueWorld } from "../../support/queueWorld";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const TASKS = ["Add a footer", "Fix the title", "Write the changelog", "Rename the app"].map((text) => ({ text }));

async function queued(world: ReturnType<typeof queueWorld>, repo: string, parallel = 2, tasks = TASKS) {
  await world.book.set(addTasks(newQueue(repo, "main", parallel), tasks));
  await world.runner.pump();
}

describe("the queue runs its tasks", () => {
  it("starts at most K, each in its own ready worktree from the base, types each once, and starts the next when one is done", async () => {
    const repo = queueRepo(tempDir());
    const base = git(repo, "rev-parse", "main").trim();
    const world = queueWorld(repo, { setupCommand: "echo ready > .setup-marker" });
    await queued(world, repo);
    await world.until((q) => q.tasks.filter((t) => t.state === "running").length === 2 && q, "two tasks running");
    expect(world.typed()).toEqual(["type agent-1: Add a footer", "type agent-2: Fix the title"]);
    const [first, second] = world.book.queue!.tasks;
    for (const task of [first!, second!]) {
      const path = join(repo, ".claude/worktrees", task.start!.worktree);
      expect(readFileSync(join(path, ".env"), "utf8")).toBe("SECRET=1\n");
      expect(readFileSync(join(path, ".setup-marker"), "utf8")).toBe("ready\n");
      expect(git(path, "rev-parse", "HEAD").trim()).toBe(base);
    }
    expect(first!.start!.worktree).not.toBe(second!.start!.worktree);
    expect(queueSummary(world.book.queue!)).toBe("Queue: 2 waiting · 2 running");

    world.finish("agent-1", "footer.txt");
    await world.until((q) => taskOf(q, "q3")!.state === "running" && q, "the third task running");
    expect(taskOf(world.book.queue!, "q1")!.state).toBe("done");
    expect(world.typed()).toHaveLength(3);
    world.finish("agent-2", "title.txt");
    world.finish("agent-3", "log.txt");
    await world.until((q) => taskOf(q, "q4")!.state === "running" && q, "the fourth task running");
    world.finish("agent-4", "rename.txt");
    await world.until((q) => q.tasks.every((t) => t.state === "done") && q, "every task done");
    expect(world.typed()).toEqual([
      "type agent-1: Add a footer",
      "type agent-2: Fix the title",
      "type agent-3: Write the changelog",
      "type agent-4: Rename the app",
    ]);
    expect(world.mostWorking()).toBe(2);
    expect(world.events.filter((e) => /slot freed → task typed in \d+ ms/.test(e))).toHaveLength(4);
  });

  it("keeps the slot of an agent asking for permission (needs you), and a turn ended without a commit needs you too", async () => {
    const repo = queueRepo(tempDir());
    const world = queueWorld(repo);
    await queued(world, repo, 1);
    await world.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first running");
    world.ask("agent-1");
    await world.until((q) => taskOf(q, "q1")!.state === "needsYou" && q, "needs you");
    expect(queueSummary(world.book.queue!)).toBe("Queue: 3 waiting · 1 needs you");
    await world.runner.pump();
    expect(world.typed()).toHaveLength(1);
    world.finish("agent-1");
    await world.until((q) => /without its work committed/.test(taskOf(q, "q1")!.problem ?? "") && q, "not committed");
    expect(taskOf(world.book.queue!, "q1")!.state).toBe("needsYou");
    expect(world.typed()).toHaveLength(1);
  });

  it("fails a task whose claude exits, with its message, and starts the next", async () => {
    const repo = queueRepo(tempDir());
    const world = queueWorld(repo);
    await queued(world, repo, 1);
    await world.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first running");
    world.exit("agent-1", "API Error: 500");
    await world.until((q) => taskOf(q, "q2")!.state === "running" && q, "the second running");
    expect(taskOf(world.book.queue!, "q1")).toMatchObject({ state: "failed", problem: "Its claude exited: API Error: 500." });
    expect(world.told.join("\n")).toContain("API Error: 500");
  });

  it("stops a task whose setup fails with the end of its output, and the queue goes on", async () => {
    const repo = queueRepo(tempDir());
    const world = queueWorld(repo, { setupCommand: "echo installing; echo 'npm ERR! missing lockfile' >&2; exit 3" });
    await queued(world, repo, 1, TASKS.slice(0, 2));
    await world.until((q) => q.tasks.every((t) => t.state === "failed") && q, "both failed");
    const task = taskOf(world.book.queue!, "q1")!;
    expect(task.problem).toMatch(/^Its setup failed \(exit code 3\)/);
    expect(task.output).toContain("npm ERR! missing lockfile");
    expect(world.typed()).toEqual([]);
    expect(world.events.filter((e) => e.startsWith("launch"))).toEqual([]);
  });

  it("runs the repository's setup file only once the user said yes to its exact text, and remembers it", async () => {
    const repo = queueRepo(tempDir());
    const asked: string[] = [];
    const world = queueWorld(repo, { ask: async (_q, shown) => (asked.push(shown), "run") });
    mkdirSync(join(repo, ".arcadia"));
    writeFileSync(join(repo, ".arcadia/worktree-setup.sh"), "touch from-repo\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "setup file");
    await queued(world, repo, 2, TASKS.slice(0, 2));
    await world.until((q) => q.tasks.every((t) => t.state === "running") && q, "both running");
    expect(asked).toEqual(["touch from-repo\n"]);
    expect(asked[0]).toBe("touch from-repo\n");
    for (const t of world.book.queue!.tasks) expect(existsSync(join(repo, ".claude/worktrees", t.start!.worktree, "from-repo"))).toBe(true);
    expect(Object.values(world.answers()[repo]!)).toEqual(["run"]);
  });

  it("never runs the workspace's setup command, and says so", async () => {
    const repo = queueRepo(tempDir());
    const world = queueWorld(repo, { workspaceCommand: "touch pwned" });
    await queued(world, repo, 1, TASKS.slice(0, 1));
    await world.until((q) => taskOf(q, "q1")!.state === "running" && q, "running");
    expect(existsSync(join(repo, ".claude/worktrees", taskOf(world.book.queue!, "q1")!.start!.worktree, "pwned"))).toBe(false);
    expect(world.notes.join("\n")).toMatch(/workspace's settings set arcadia.worktree.setupCommand; it is not run/);
  });

  it("starts nothing while a budget cap would be passed, and says why", async () => {
    const repo = queueRepo(tempDir());
    let hold: string | undefined = "today's $20.00 budget is reached";
    const world = queueWorld(repo, { budgetHold: () => hold });
    await queued(world, repo);
    expect(world.events.filter((e) => e.startsWith("launch"))).toEqual([]);
    expect(world.runner.why()).toBe("Paused at budget: today's $20.00 budget is reached. The next task starts once the cap is raised.");
    expect(queueSummary(world.book.queue!, world.runner.gates())).toBe("Queue: 4 waiting · paused at budget");
    hold = undefined;
    await world.runner.pump();
    await world.until((q) => q.tasks.filter((t) => t.state === "running").length === 2 && q, "two running");
  });

  it("holds the queue when its base branch is deleted, naming it", async () => {
    const repo = queueRepo(tempDir());
    git(repo, "checkout", "-q", "-b", "feature");
    const world = queueWorld(repo);
    await world.book.set(addTasks(newQueue(repo, "main", 2), TASKS));
    git(repo, "branch", "-q", "-D", "main");
    await world.runner.pump();
    expect(world.runner.why()).toMatch(/^The base branch main is gone/);
    expect(world.book.queue!.tasks.every((t) => t.state === "waiting")).toBe(true);
  });

  it("gives a task whose name's folder is already there a worktree of its own, never that folder", async () => {
    const repo = queueRepo(tempDir());
    mkdirSync(join(repo, ".claude/worktrees/add-a-footer"), { recursive: true });
    writeFileSync(join(repo, ".claude/worktrees/add-a-footer/notes.txt"), "the user's\n");
    const world = queueWorld(repo);
    await queued(world, repo, 1, TASKS.slice(0, 1));
    await world.until((q) => taskOf(q, "q1")!.state === "running" && q, "running");
    expect(taskOf(world.book.queue!, "q1")!.start!.worktree).toBe("add-a-footer-2");
    expect(readFileSync(join(repo, ".claude/worktrees/add-a-footer/notes.txt"), "utf8")).toBe("the user's\n");
  });

  it("frees a cancelled task's slot for the next, and its agent closing afterwards does not fail it", async () => {
    const repo = queueRepo(tempDir());
    const world = queueWorld(repo);
    await queued(world, repo, 1, TASKS.slice(0, 2));
    await world.until((q) => taskOf(q, "q1")!.state === "running" && q, "the first running");
    await world.book.update((q) => cancelTask(q, "q1", 0));
    await world.runner.pump();
    await world.until((q) => taskOf(q, "q2")!.state === "running" && q, "the second running");
    world.close("agent-1");
    expect(taskOf(world.book.queue!, "q1")!.state).toBe("cancelled");
    expect(world.typed()).toEqual(["type agent-1: Add a footer", "type agent-2: Fix the title"]);
  });
});

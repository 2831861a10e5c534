/**
 * Landing finished tasks on real git: the plan merges the clean ones first and stops at the one
 * that conflicts with the moved base, naming its file; merges go one at a time with the check after
 * each; the base's log is exactly the merged tasks; a failing check stops there with that merge
 * taken back; a task landed already (by hand, or in an earlier landing) is not offered again.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planLanding, landInOrder, type LandingPorts, toLand } from "../../../src/agents/queue/queueLanding";
import { runSetupProcess } from "../../../src/agents/queue/setupProcess";
import { createWorktree, mergeWorktree } from "../../../src/core/git";
import { addTasks, newQueue, type Queue } from "../../../src/core/queue";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** Five done tasks: four add a file each, the fifth edits README.md, which the base then changes too. */
async function finishedQueue(repo: string): Promise<Queue> {
  const base = git(repo, "rev-parse", "main").trim();
  const files = ["a.txt", "b.txt", "c.txt", "d.txt", "README.md"];
  let queue = addTasks(
    newQueue(repo, "main", 2),
    files.map((f) => ({ text: `Write ${f}` })),
  );
  for (const [i, file] of files.entries()) {
    const name = `task-${i + 1}`;
    const info = await createWorktree(repo, name, { base: "main", commit: base });
    writeFileSync(join(info.path, file), `task ${i + 1}\n`);
    git(info.path, "add", "-A");
    git(info.path, "commit", "-q", "-m", `task ${i + 1}`);
    queue = {
      ...queue,
      tasks: queue.tasks.map((t, k) =>
        k === i
          ? { ...t, state: "done", endedAt: i, start: { worktree: name, commit: base, setupDone: true, agentId: `a${i}`, typed: true, startedAt: 0 } }
          : t,
      ),
    };
  }
  writeFileSync(join(repo, "README.md"), "# moved on\n");
  git(repo, "commit", "-q", "-am", "base moves");
  return queue;
}

const ports = (checks: string[], check = "true"): LandingPorts => ({
  merge: (request, message) => mergeWorktree(request, message),
  check: async (repo) => {
    const end = await runSetupProcess(["sh", "-c", check], repo, 20_000);
    checks.push(git(repo, "log", "-1", "--format=%s").trim());
    return { ok: end.exitCode === 0, output: end.output };
  },
  progress: () => undefined,
});

describe("landing finished work in order", () => {
  it("merges the four clean tasks one at a time with the check after each, and stops at the conflicting fifth naming its file", async () => {
    const repo = committedRepo(tempDir());
    const queue = await finishedQueue(repo);
    const before = git(repo, "rev-parse", "main").trim();
    const tasks = await toLand(queue);
    const plan = await planLanding(queue, tasks);
    expect(plan.order).toEqual(["q1", "q2", "q3", "q4"]);
    expect(plan.stop).toEqual({ id: "q5", conflicts: ["README.md"] });
    const checks: string[] = [];
    const result = await landInOrder(queue, tasks, plan.order, ports(checks));
    expect(result).toEqual({ landed: ["q1", "q2", "q3", "q4"], stop: null });
    expect(checks).toHaveLength(4);
    // The base's log since: exactly the four tasks, each merged (its commit and the merge).
    expect(git(repo, "log", "--format=%s", "--first-parent", `${before}..main`).trim().split("\n")).toHaveLength(4);
    expect(git(repo, "log", "--format=%s", "--no-merges", `${before}..main`).trim().split("\n").sort()).toEqual(["task 1", "task 2", "task 3", "task 4"]);
    // Landed ones are not offered again; the conflicting one still is, and its merge names its file.
    const again = await toLand(queue);
    expect(again.map((t) => t.id)).toEqual(["q5"]);
    const last = await landInOrder(queue, again, ["q5"], ports([]));
    expect(last.stop).toMatchObject({ id: "q5", kind: "conflict", files: ["README.md"] });
    expect(git(repo, "status", "--porcelain", "--untracked-files=no").trim()).toBe("");
  });

  it("stops at the first failing check and takes that merge back: the base keeps only what passed", async () => {
    const repo = committedRepo(tempDir());
    const queue = await finishedQueue(repo);
    const before = git(repo, "rev-parse", "main").trim();
    const tasks = await toLand(queue);
    const plan = await planLanding(queue, tasks);
    const checks: string[] = [];
    const result = await landInOrder(queue, tasks, plan.order, ports(checks, "test ! -f c.txt || { echo 'c.txt breaks the build' >&2; exit 1; }"));
    expect(result.landed).toEqual(["q1", "q2"]);
    expect(result.stop).toMatchObject({ id: "q3", kind: "check", why: "The check failed after merging it: its merge was taken back." });
    expect(result.stop && "output" in result.stop && result.stop.output).toContain("c.txt breaks the build");
    expect(git(repo, "log", "--format=%s", "--no-merges", `${before}..main`).trim().split("\n").sort()).toEqual(["task 1", "task 2"]);
    expect(git(repo, "status", "--porcelain", "--untracked-files=no").trim()).toBe("");
  });
});

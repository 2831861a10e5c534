/**
 * Two of the bad inputs on a real repository: a base branch deleted mid-queue holds the
 * queue with why (said once, not a failure per task) and a base that moved gives the next task
 * the new tip; a worktree folder or branch already there (an earlier attempt's, one made by hand)
 * is never reused: the task gets the next free name, and git makes its worktree. And when a turn's
 * work counts as committed (done) or not (it needs the user).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorktree, WORKTREES_FOLDER } from "../../../src/core/git";
import { takenWorktreeNames } from "../../../src/core/races";
import { addTasks, baseGoneHold, baseTip, newQueue, nextStart, queueSummary, taskWorktreeName, workCommitted } from "../../../src/core/queue";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

function repository(): string {
  const root = realpathSync(tempDir());
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, ".gitignore"), "/.claude/worktrees/\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  return root;
}

describe("the base mid-queue", () => {
  it("starts the next task from the base's new tip after it moved", async () => {
    const root = repository();
    const before = await baseTip(root, "main");
    writeFileSync(join(root, "landed.txt"), "x\n");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "a task landed");
    const after = await baseTip(root, "main");
    expect(after).toBe(git(root, "rev-parse", "HEAD"));
    expect(after).not.toBe(before);
  });

  it("holds the queue with why when the base branch is deleted, and starts again once it is back", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "feature");
    git(root, "branch", "-q", "-D", "main");
    const queue = addTasks(newQueue(root, "main", 2), [{ text: "Fix the login" }]);
    const tip = await baseTip(root, "main");
    expect(tip).toBeUndefined();
    const gates = { baseHold: tip ? undefined : baseGoneHold("main") };
    const next = nextStart(queue, gates);
    expect(!next.start && next.why).toBe(
      "The base branch main is gone (deleted or renamed): nothing new starts. Recreate main, or make a new queue on another branch.",
    );
    expect(queueSummary(queue, gates)).toBe("Queue: 1 waiting · base branch gone");
    git(root, "branch", "-q", "main");
    expect(await baseTip(root, "main")).toBe(git(root, "rev-parse", "HEAD"));
  });

  it("never takes an option or a range for the base", async () => {
    const root = repository();
    expect(await baseTip(root, "--all")).toBeUndefined();
    expect(await baseTip(root, "main..main")).toBeUndefined();
  });
});

describe("a worktree folder already there", () => {
  it("gives the task the next free name, and git makes its worktree there", async () => {
    const root = repository();
    mkdirSync(join(root, WORKTREES_FOLDER, "fix-the-login-redirect"), { recursive: true });
    git(root, "branch", "worktree-fix-the-login-redirect-2");
    const name = taskWorktreeName("Fix the login redirect!", await takenWorktreeNames(root));
    expect(name).toBe("fix-the-login-redirect-3");
    const made = await createWorktree(root, name, { base: "main", commit: git(root, "rev-parse", "main") });
    expect(made.branch).toBe("worktree-fix-the-login-redirect-3");
  });
});

describe("work committed when the turn ends", () => {
  it("is done only with a commit since its start and nothing left uncommitted", async () => {
    const root = repository();
    const start = git(root, "rev-parse", "main");
    const tree = await createWorktree(root, "task", { base: "main", commit: start });
    expect(await workCommitted(tree.path, start)).toBe(false);
    writeFileSync(join(tree.path, "work.txt"), "done\n");
    expect(await workCommitted(tree.path, start)).toBe(false);
    git(tree.path, "add", "-A");
    git(tree.path, "commit", "-q", "-m", "the work");
    expect(await workCommitted(tree.path, start)).toBe(true);
    writeFileSync(join(tree.path, "scratch.txt"), "left behind\n");
    expect(await workCommitted(tree.path, start)).toBe(false);
  });
});

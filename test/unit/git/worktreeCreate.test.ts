/** A new worktree for an agent, on real repositories: where it goes, what it remembers, what is refused. */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentWorktrees,
  createWorktree,
  ignoreWorktrees,
  repositoryRoot,
  worktreeNameProblem,
  worktreeOf,
  worktreesIgnored,
} from "../../../src/core/git/worktreeCreate";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

function repo(): string {
  const root = realpathSync(tempDir());
  git(root, "init", "-q", "-b", "main");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "a\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  return root;
}

describe("a new worktree for an agent", () => {
  it("goes to .claude/worktrees/<name> on branch worktree-<name>, and remembers its base for merge after a reload", async () => {
    const root = repo();
    const made = await createWorktree(root, "fix-login");
    expect(made).toEqual({ path: join(root, ".claude", "worktrees", "fix-login"), branch: "worktree-fix-login", base: "main", repo: root });
    expect(readFileSync(join(made.path, "src", "a.ts"), "utf8")).toBe("a\n");
    // Asked from anywhere inside it (a subfolder too), it is found with its base.
    expect(await worktreeOf(join(made.path, "src"))).toEqual(made);
    expect(await repositoryRoot(join(made.path, "src"))).toBe(root);
    // The main checkout is not a worktree agent's.
    expect(await worktreeOf(root)).toBeUndefined();
    expect(await worktreeOf(tempDir())).toBeUndefined();
  });

  it("a recorded base that could pass for an option or a range is not used: the main checkout's branch is", async () => {
    const root = repo();
    const made = await createWorktree(root, "x");
    for (const hostile of ["--output=/tmp/pwned", "main..evil", "-p"]) {
      git(root, "config", "branch.worktree-x.arcadiaBase", hostile);
      expect((await worktreeOf(made.path))?.base, hostile).toBe("main");
    }
  });

  it("refuses a name git or the folder layout cannot take, and a branch that exists", async () => {
    const root = repo();
    for (const bad of ["", "-x", "a b", "a/b", "..", "x..y", "x.lock", "ü", "x".repeat(49)]) expect(worktreeNameProblem(bad), bad).toBeDefined();
    expect(worktreeNameProblem("fix_login-2.0")).toBeUndefined();
    git(root, "branch", "worktree-taken");
    await expect(createWorktree(root, "taken")).rejects.toThrow("A branch worktree-taken already exists: choose another name");
    await expect(createWorktree(root, "a b")).rejects.toThrow(/Use letters, digits/);
  });

  it("outside a repository there is no root to make it in", async () => {
    expect(await repositoryRoot(tempDir())).toBeUndefined();
  });

  it("offers .gitignore once: ignoring the worktrees folder appends one line, keeping what is there", async () => {
    const root = repo();
    writeFileSync(join(root, ".gitignore"), "node_modules");
    expect(await worktreesIgnored(root)).toBe(false);
    await ignoreWorktrees(root);
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe("node_modules\n/.claude/worktrees/\n");
    expect(await worktreesIgnored(root)).toBe(true);
  });
});

describe("the agents' worktrees of a repository", () => {
  it("lists those under .claude/worktrees with their branch and lock, not the main checkout or other worktrees", async () => {
    const root = repo();
    const one = await createWorktree(root, "one");
    const two = await createWorktree(root, "two");
    git(root, "worktree", "lock", two.path);
    git(root, "worktree", "add", "-q", "-b", "elsewhere", join(realpathSync(tempDir()), "other"));
    expect(await agentWorktrees(root)).toEqual([
      { path: one.path, branch: "worktree-one", locked: false },
      { path: two.path, branch: "worktree-two", locked: true },
    ]);
  });
});

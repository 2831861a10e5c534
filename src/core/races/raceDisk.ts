/**
 * What git says that a race needs before and after it starts: the names a new race may not take
 * (worktree folders and `worktree-*` branches that exist), the branch and commit its members start
 * from, and whether a member's branch is still there.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { git, nulFields, runGit, WORKTREES_FOLDER } from "../git";

/** Worktree names taken in `repo`: a folder under `.claude/worktrees/`, or a `worktree-<name>` branch. */
export async function takenWorktreeNames(repo: string): Promise<Set<string>> {
  const taken = new Set<string>(await readdir(join(repo, WORKTREES_FOLDER)).catch(() => []));
  const branches = await git(repo, ["for-each-ref", "--format=%(refname:lstrip=2)%00", "refs/heads/worktree-*"]);
  for (const branch of nulFields(branches.replace(/\n/g, ""))) taken.add(branch.slice("worktree-".length));
  return taken;
}

/** The branch checked out in `repo` and its commit; undefined when it is not on a branch. */
export async function startingPoint(repo: string): Promise<{ base: string; commit: string } | undefined> {
  const base = (await runGit(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim();
  if (!base) return undefined;
  const commit = (await git(repo, ["rev-parse", "--verify", "HEAD^{commit}"])).trim();
  return { base, commit };
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await runGit(repo, ["rev-parse", "--verify", "-q", `refs/heads/${branch}`])).code === 0;
}

/** Commits everything in `worktree` (untracked files too) on its branch: an unpicked member's work kept there, not merged. */
export async function commitWork(worktree: string, message: string): Promise<void> {
  await git(worktree, ["add", "-A", "--", "."]);
  await git(worktree, ["commit", "-q", "-m", message]);
}

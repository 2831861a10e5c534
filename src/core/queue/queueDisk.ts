/**
 * What git says that a task's start needs: the base's commit now (each task starts from the tip of
 * the base as it is when its slot frees, so it sees the work landed before it; a base deleted or
 * renamed mid-queue holds the queue with why, rather than failing every task in turn), and a
 * worktree name of its own from its words — never one whose folder or branch is already there
 * (an earlier attempt's, a race member's, one made by hand), so nothing of another is reused.
 * And whether a task's work is committed when its agent's turn ends (what makes it done).
 */
import { git, runGit } from "../git";
import { taskNameFrom } from "../races";

/** The commit `base` points at now, or undefined when the branch is gone. */
export async function baseTip(repo: string, base: string): Promise<string | undefined> {
  const result = await runGit(repo, ["rev-parse", "--verify", "-q", `refs/heads/${base}^{commit}`]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** Why the queue holds when its base is gone: said on the queue's line, once, not on every task. */
export const baseGoneHold = (base: string) =>
  `The base branch ${base} is gone (deleted or renamed): nothing new starts. Recreate ${base}, or make a new queue on another branch.`;

/** `fix-the-login-redirect`, or `…-2`, `…-3`: the first whose folder and `worktree-<name>` branch are both free. */
export function taskWorktreeName(text: string, taken: ReadonlySet<string>): string {
  const base = taskNameFrom(text);
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * Its work is committed: the worktree has no uncommitted change (untracked files count) and its
 * branch has at least one commit since `startCommit`. A turn that ends otherwise needs the user.
 */
export async function workCommitted(worktree: string, startCommit: string): Promise<boolean> {
  const status = await git(worktree, ["status", "--porcelain=v1", "--untracked-files=all"]);
  if (status.trim() !== "") return false;
  const ahead = await runGit(worktree, ["rev-list", "--count", `${startCommit}..HEAD`]);
  return ahead.code === 0 && Number(ahead.stdout.trim()) > 0;
}

/**
 * Removing a worktree never loses work silently. `removalCheck` says what removing would lose:
 * uncommitted files (untracked ones included) and commits its branch has that the base has not.
 * `removeWorktree` refuses when there is any, unless the user said to discard it; the branch is
 * deleted only when it is merged (`git branch -d`), so unmerged commits stay reachable even then.
 */
import { countOf } from "../util";
import { git, nulFields, runGit } from "./gitRunner";

export interface RemovalCheck {
  /** Files with uncommitted changes (relative to the worktree). */
  uncommitted: string[];
  /** Commits on the branch and not in the base (one line each). */
  unmerged: string[];
  branch: string | undefined;
}

export async function removalCheck(worktree: string, base: string): Promise<RemovalCheck> {
  const status = nulFields(await git(worktree, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]));
  const uncommitted: string[] = [];
  for (let i = 0; i < status.length; i++) {
    const entry = status[i]!;
    uncommitted.push(entry.slice(3));
    if (entry.startsWith("R") || entry.startsWith("C")) i++;
  }
  const branch = (await runGit(worktree, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim() || undefined;
  const unmerged = (await git(worktree, ["log", "--format=%h %s", `${base}..HEAD`])).split("\n").filter((l) => l !== "");
  return { uncommitted, unmerged, branch };
}

/** What `check` would lose, in words ("" when nothing). */
export function lossOf(check: RemovalCheck): string {
  const parts: string[] = [];
  if (check.uncommitted.length > 0)
    parts.push(
      `${countOf(check.uncommitted.length, "uncommitted file")} (${check.uncommitted.slice(0, 5).join(", ")}${check.uncommitted.length > 5 ? ", …" : ""})`,
    );
  if (check.unmerged.length > 0) parts.push(`${countOf(check.unmerged.length, "commit")} not merged into the base (kept on branch ${check.branch ?? "?"})`);
  return parts.join(" and ");
}

export type RemovalOutcome = { removed: true; branchDeleted: boolean } | { removed: false; wouldLose: string };

/**
 * `agreed`: the loss the user was shown and said yes to (lossOf, "" for nothing). Read again here:
 * anything more since the question (a file written meanwhile) refuses the removal, never goes with it.
 */
export async function removeWorktree(repo: string, worktree: string, base: string, agreed: string): Promise<RemovalOutcome> {
  const check = await removalCheck(worktree, base);
  const loss = lossOf(check);
  if (loss !== "" && loss !== agreed) return { removed: false, wouldLose: loss };
  await git(repo, ["worktree", "remove", ...(check.uncommitted.length > 0 ? ["--force"] : []), worktree]);
  await runGit(repo, ["worktree", "prune"]);
  // -d, never -D: an unmerged branch stays, with its commits.
  const branchDeleted = check.branch !== undefined && check.unmerged.length === 0 && (await runGit(repo, ["branch", "-d", check.branch])).code === 0;
  return { removed: true, branchDeleted };
}

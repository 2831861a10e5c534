/**
 * A file as it is at a commit (the left side of Review's diffs), "" when it is not there. The ref
 * and path come from a URI anyone can open, so only a commit id or HEAD is taken, and
 * `--end-of-options` keeps the argument a revision: `git show --output=<file>` would write a file.
 */
import { runGit } from "./gitRunner";

const SAFE_REF = /^(?:HEAD|[0-9a-f]{7,64})$/;

export async function fileAtRef(cwd: unknown, ref: unknown, path: unknown): Promise<string> {
  if (typeof cwd !== "string" || typeof ref !== "string" || typeof path !== "string" || !SAFE_REF.test(ref)) return "";
  const shown = await runGit(cwd, ["show", "--end-of-options", `${ref}:${path}`]);
  return shown.code === 0 ? shown.stdout : "";
}

/** A branch name as git allows it, and never an option: the query may come from any URI. */
const SAFE_BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;

/**
 * A file as it is where the work tree's HEAD branched from `branch` now (`git merge-base`): the
 * left side of a worktree's Review, which follows a merge (after it the base side is the merged
 * work, and the diff empties) instead of staying on the commit of the moment Review was opened.
 */
export async function fileAtMergeBase(cwd: unknown, branch: unknown, path: unknown): Promise<string> {
  if (typeof cwd !== "string" || typeof branch !== "string" || !SAFE_BRANCH.test(branch)) return "";
  const base = await runGit(cwd, ["merge-base", `refs/heads/${branch}`, "HEAD"]);
  return base.code === 0 ? fileAtRef(cwd, base.stdout.trim(), path) : "";
}

/** The two sides of each file in a worktree's Review (the multi-file diff), as plain URI parts: which file, at which commit. */
import { join } from "node:path";
import type { FileChange } from "../../core/git";

/** One side of a diff: a path (what the diff editor names the side by) and what the base scheme's provider reads. */
export interface BaseSide {
  path: string;
  /** `follow`: read at the merge-base of HEAD with this branch now (the ref is the one of the moment it was opened). */
  query: { cwd: string; ref: string; path: string; follow?: string };
}

export interface ReviewSides {
  /** The file in the worktree (absolute). */
  file: string;
  left: BaseSide;
  /** The file itself, or (deleted) an empty base side under its own name. */
  right: { file: string } | BaseSide;
}

/**
 * Each changed file's sides: the left at the base commit, the right the file now. The left side is
 * named by the file's own absolute path (its old one for a rename): the diff editor calls a file
 * renamed when its two sides have different paths, and a modified file named by its relative path
 * on the left read "renamed" (issue 33). With `follow` (the base branch) the left side is read where
 * the work branched from that branch at the time it is read: after a merge, the Review empties.
 */
export function reviewSides(worktree: string, base: string, files: readonly FileChange[], follow?: string): ReviewSides[] {
  return files.map((f) => {
    const file = join(worktree, f.path);
    const was = f.from ?? f.path;
    const left: BaseSide = { path: join(worktree, was), query: { cwd: worktree, ref: base, path: was, ...(follow ? { follow } : {}) } };
    const right = f.status === "deleted" ? { path: file, query: { cwd: worktree, ref: "", path: f.path } } : { file };
    return { file, left, right };
  });
}

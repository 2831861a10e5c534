/**
 * Landing a worktree agent's work in its base branch, never by surprise. `planMerge` only looks
 * (`mergeVerdict`, also the compare tab's forecast): the main checkout must be on the base branch
 * with no uncommitted change in the files the merge touches, and `git merge-tree` predicts the result from a snapshot of the worktree as it is (its
 * uncommitted changes included), so conflicts are named before anything is modified anywhere.
 * `mergeWorktree` plans again, then commits the worktree's changes (the user's message) and merges
 * the branch in the main checkout; a merge git refuses is aborted, leaving the checkout as it was.
 */
import { countOf } from "../util";
import { git, nulFields, runGit } from "./gitRunner";
import { predictMerge } from "./mergePrediction";
import { snapshotWorkTree } from "./worktreeSnapshot";

export interface MergeRequest {
  /** The main checkout (where the base branch is checked out). */
  repo: string;
  /** The worktree's root. */
  worktree: string;
  /** The worktree's branch, e.g. "worktree-fix-login". */
  branch: string;
  /** The branch to merge into, e.g. "main". */
  base: string;
}

/** Whether a merge may go ahead (the files it would change), or why not in the words the user is shown (and the conflicting files). */
export type MergeVerdict = { ok: true; files: string[] } | { ok: false; blocked: string; conflicts?: string[] };

export type MergePlan = { ok: true; files: string[]; uncommitted: boolean } | { ok: false; blocked: string; conflicts?: string[] };

export type MergeOutcome = { merged: true; commit: string; committed: boolean; files: string[] } | { merged: false; blocked: string; conflicts?: string[] };

/**
 * What merging `snapshot` (a commit: a worktree as it is, its uncommitted changes included) into
 * `base` would do now: the one rule of Merge…, a race's Pick and the compare tab's forecast, so the
 * forecast says what Pick will do, in Pick's own words. Looks only: nothing is touched.
 */
export async function mergeVerdict(repo: string, base: string, snapshot: string): Promise<MergeVerdict> {
  const current = (await runGit(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim();
  if (current !== base)
    return {
      ok: false,
      blocked: current
        ? `The main checkout is on "${current}", not "${base}": switch it to ${base} first.`
        : `The main checkout is not on a branch: switch it to ${base} first.`,
    };
  const prediction = await predictMerge(repo, base, snapshot);
  if (!prediction.clean)
    return {
      ok: false,
      blocked: `Merging would conflict in ${countOf(prediction.conflicts.length, "file")}: ${prediction.conflicts.join(", ")}. Nothing was changed.`,
      conflicts: prediction.conflicts,
    };
  const files = nulFields(await git(repo, ["diff", "--name-only", "-z", `${base}...${snapshot}`]));
  if (files.length > 0) {
    const dirty = nulFields(await git(repo, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ...files.map((f) => `:(literal)${f}`)]))
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3));
    if (dirty.length > 0)
      return { ok: false, blocked: `The main checkout has uncommitted changes in files the merge touches: ${dirty.join(", ")}. Commit or stash them first.` };
  }
  return { ok: true, files };
}

export async function planMerge(request: MergeRequest): Promise<MergePlan> {
  const snapshot = await snapshotWorkTree(request.worktree);
  const head = (await git(request.worktree, ["rev-parse", "HEAD"])).trim();
  const verdict = await mergeVerdict(request.repo, request.base, snapshot);
  return verdict.ok ? { ...verdict, uncommitted: snapshot !== head } : verdict;
}

/** Commits the worktree's uncommitted changes with `message` (when there are any), then merges. */
export async function mergeWorktree(request: MergeRequest, message: string): Promise<MergeOutcome> {
  const plan = await planMerge(request);
  if (!plan.ok) return { merged: false, blocked: plan.blocked, ...(plan.conflicts ? { conflicts: plan.conflicts } : {}) };
  if (plan.uncommitted) {
    await git(request.worktree, ["add", "-A", "--", "."]);
    await git(request.worktree, ["commit", "-q", "-m", message]);
  }
  const merge = await runGit(request.repo, ["merge", "--no-edit", request.branch]);
  if (merge.code !== 0) {
    await runGit(request.repo, ["merge", "--abort"]);
    return { merged: false, blocked: `git refused the merge, and it was undone: ${(merge.stderr || merge.stdout).trim()}` };
  }
  const commit = (await git(request.repo, ["rev-parse", "HEAD"])).trim();
  return { merged: true, commit, committed: plan.uncommitted, files: plan.files };
}

/**
 * What one race member's worktree amounts to against the race's base, as the compare view shows
 * it: the files changed with `+a −b` (committed, staged, unstaged and untracked alike: from a
 * snapshot, nothing touched) and what Pick would do with it now, by Pick's own rule (merge-tree and
 * the main checkout's state, nothing touched): merge cleanly, stop on the files that conflict, or
 * refuse and why.
 */
import { changeStats, type FileChange, git, mergeVerdict, predictionUnavailable } from "../git";

/**
 * What Pick would do now: merge cleanly, stop on conflicts, or refuse for another reason (`blocked`:
 * the main checkout is not on the base, or has uncommitted changes in files the merge touches), in
 * the words Pick itself would show; or why it cannot be told.
 */
export type MergeForecast =
  { kind: "clean" } | { kind: "conflicts"; files: string[] } | { kind: "blocked"; reason: string } | { kind: "unavailable"; reason: string };

export interface MemberChanges {
  /** The snapshot commit of the worktree as counted (what "diff two agents" compares). */
  snapshot: string;
  /**
   * Its tree: the files alone. What a check ran on is told by this, not the commit: committing the
   * same files (a merge commits them) makes a new commit, not new files.
   */
  tree: string;
  files: FileChange[];
  added: number;
  removed: number;
  merge: MergeForecast;
}

/** git cannot predict merges (too old, missing): asked once per process, it does not change. */
let unavailable: Promise<string | undefined> | undefined;

export async function memberChanges(repo: string, worktree: string, base: string): Promise<MemberChanges> {
  const stats = await changeStats(worktree, base);
  const why = await (unavailable ??= predictionUnavailable());
  let merge: MergeForecast;
  if (why) merge = { kind: "unavailable", reason: why };
  else {
    // Pick's own rule (core/git mergeVerdict), not a second copy of it.
    const verdict = await mergeVerdict(repo, base, stats.snapshot);
    if (verdict.ok) merge = { kind: "clean" };
    else merge = verdict.conflicts ? { kind: "conflicts", files: verdict.conflicts } : { kind: "blocked", reason: verdict.blocked };
  }
  const tree = (await git(worktree, ["rev-parse", `${stats.snapshot}^{tree}`])).trim();
  return { snapshot: stats.snapshot, tree, files: stats.files, added: stats.added, removed: stats.removed, merge };
}

/**
 * What one race member's worktree amounts to against the race's base, as the compare view shows
 * it: the files changed with `+a −b` (committed, staged, unstaged and untracked alike: from a
 * snapshot, nothing touched) and what merging it into the base now would do (`git merge-tree`,
 * no work tree touched): clean, or the files that conflict.
 */
import { changeStats, type FileChange, git, predictionUnavailable, predictMerge } from "../git";

export type MergeForecast = { kind: "clean" } | { kind: "conflicts"; files: string[] } | { kind: "unavailable"; reason: string };

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
    const prediction = await predictMerge(repo, base, stats.snapshot);
    merge = prediction.clean ? { kind: "clean" } : { kind: "conflicts", files: prediction.conflicts };
  }
  const tree = (await git(worktree, ["rev-parse", `${stats.snapshot}^{tree}`])).trim();
  return { snapshot: stats.snapshot, tree, files: stats.files, added: stats.added, removed: stats.removed, merge };
}

/**
 * What merging a branch into its base would do, found without touching any work tree, index or
 * ref: `git merge-tree --write-tree` (git ≥ 2.38) computes the merge in the object store alone.
 * Clean → the tree the merge would make; conflicts → the files that conflict.
 */
import { GitError, gitVersion, nulFields, runGit } from "./gitRunner";

export type MergePrediction = { clean: true; tree: string } | { clean: false; conflicts: string[] };

export const MIN_GIT_FOR_PREDICTION: readonly [number, number] = [2, 38];

/** Why prediction cannot run here (git too old or missing), or undefined when it can. */
export async function predictionUnavailable(): Promise<string | undefined> {
  const version = await gitVersion();
  if (!version) return "git cannot be run: install git, or put it on the PATH";
  const [major, minor] = version;
  const [needMajor, needMinor] = MIN_GIT_FOR_PREDICTION;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return (
    `git ${major}.${minor} cannot predict a merge without touching the work tree (merge-tree --write-tree needs git ${needMajor}.${needMinor} or ` +
    `later): update git`
  );
}

/** Merging `theirs` (a commit: a branch tip or a work tree snapshot) into `base`, in `repo`. */
export async function predictMerge(repo: string, base: string, theirs: string): Promise<MergePrediction> {
  const args = ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", base, theirs];
  const result = await runGit(repo, args);
  // Exit 0: clean; 1: conflicts; anything else: git could not merge at all (e.g. unrelated histories).
  if (result.code !== 0 && result.code !== 1) throw new GitError(args, result);
  const [tree = "", ...files] = nulFields(result.stdout);
  if (result.code === 0) return { clean: true, tree };
  return { clean: false, conflicts: [...new Set(files.filter((f) => f !== ""))] };
}

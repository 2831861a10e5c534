/**
 * The landing plan's merges, predicted with real git: `git merge-tree --write-tree` (as Merge…
 * predicts) for the tree, then `git commit-tree` so the next task can be predicted onto it. Only
 * objects are written (unreferenced: git's gc removes them); no work tree, index or ref changes.
 * And each task's changed files, so only tasks that share a file are predicted pair by pair.
 */
import { git, nulFields, predictMerge } from "../git";
import type { MergeSimulator } from "./landingOrder";

/** The identity of the predicted commits only: never a ref, never the user's history. */
const PREDICTED = {
  GIT_AUTHOR_NAME: "Arcadia",
  GIT_AUTHOR_EMAIL: "arcadia@localhost",
  GIT_COMMITTER_NAME: "Arcadia",
  GIT_COMMITTER_EMAIL: "arcadia@localhost",
};

export function gitMergeSimulator(repo: string): MergeSimulator {
  return {
    async merge(onto, theirs) {
      const prediction = await predictMerge(repo, onto, theirs);
      if (!prediction.clean) return prediction;
      const commit = (await git(repo, ["commit-tree", prediction.tree, "-p", onto, "-p", theirs, "-m", "predicted landing"], { env: PREDICTED })).trim();
      return { clean: true, commit };
    },
    async files(base, theirs) {
      // Renames off: a file renamed by one task and edited by another shares its old name, so the pair is predicted.
      return nulFields(await git(repo, ["diff", "--name-only", "--no-renames", "-z", `${base}...${theirs}`]));
    },
  };
}

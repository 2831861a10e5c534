/** src/core/git: its public face — what the rest of Arcadia may import from it. */
export { type ChangeStats, changeStats, diffBetween, type FileChange } from "./changeStats";
export { fileAtMergeBase, fileAtRef } from "./fileAtRef";
export { gitFolders, type GitFolders } from "./gitFolders";
export { git, nulFields, runGit } from "./gitRunner";
export { ignoredAmong, ignoredNow } from "./ignoredPaths";
export { predictionUnavailable, predictMerge } from "./mergePrediction";
export { foreignRepository, nodeRepositoryDisk, type RepositoryDisk } from "./repositoryTrust";
export {
  agentWorktrees,
  completeWorktree,
  createWorktree,
  ignoreWorktrees,
  isPlainRef,
  repositoryRoot,
  type WorktreeInfo,
  worktreeNameProblem,
  worktreeOf,
  WORKTREES_FOLDER,
  worktreesIgnored,
} from "./worktreeCreate";
export { copyWorktreeIncludes, WORKTREE_INCLUDE_FILE, type WorktreeIncluded } from "./worktreeInclude";
export { PORTS_PER_WORKTREE, worktreeEnv } from "./worktreeEnv";
export { workTreePrint } from "./workTreePrint";
export { type MergeRequest, mergeVerdict, type MergeVerdict, mergeWorktree, planMerge } from "./worktreeMerge";
export { lossOf, removalCheck, type RemovalOutcome, removeWorktree } from "./worktreeRemoval";

/**
 * Where a checkout's git folders are: its own (HEAD, index; a linked worktree has one of its own)
 * and the repository's common one (refs, packed-refs), as absolute paths from git itself, so a
 * checkout whose `.git` is a file, or a repository with a separate git dir, is found as well.
 */
import { runGit } from "./gitRunner";

export interface GitFolders {
  gitDir: string;
  commonDir: string;
}

/** undefined where `cwd` is not in a git checkout (or git cannot run). */
export async function gitFolders(cwd: string): Promise<GitFolders | undefined> {
  const result = await runGit(cwd, ["rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir"]);
  const [gitDir, commonDir] = result.stdout.trim().split("\n");
  return result.code === 0 && gitDir && commonDir ? { gitDir, commonDir } : undefined;
}

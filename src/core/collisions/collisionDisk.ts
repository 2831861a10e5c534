/**
 * What the collision guard asks the disk, never the text: the real path of a file (symlinks
 * resolved, so two spellings of one file are one file) and whether it is still uncommitted (an
 * agent's edit that was committed no longer collides). git runs as a child process with a
 * deadline, so the extension host never waits on it.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { runGit } from "../git/gitRunner";

export interface CollisionDisk {
  /** The file's real path; for a file not created yet, its nearest existing folder's real path + the rest. */
  realPath(path: string): Promise<string>;
  /** True unless git says the file is unchanged against HEAD (not a repository, or git failing: true). */
  uncommitted(path: string): Promise<boolean>;
}

const GIT_DEADLINE_MS = 5000;

async function realPathOf(path: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      rest.push(basename(at));
      at = parent;
    }
  }
}

async function gitStatusOf(path: string): Promise<string | undefined> {
  // The nearest folder that exists; `--` keeps a name starting with "-" a path.
  const folder = await realPathOf(dirname(path));
  const result = await runGit(folder, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--", basename(path)], { timeoutMs: GIT_DEADLINE_MS });
  return result.code === 0 ? result.stdout : undefined;
}

export const nodeCollisionDisk: CollisionDisk = {
  realPath: realPathOf,
  async uncommitted(path) {
    const status = await gitStatusOf(path);
    return status === undefined || status.length > 0;
  },
};

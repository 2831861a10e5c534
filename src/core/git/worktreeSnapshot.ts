/**
 * A commit object holding a work tree exactly as it is now — committed, staged, unstaged and
 * untracked (not ignored) files — made without touching the work tree, its index or any ref: the
 * real index is copied to a scratch file, `git add -A` runs against the copy (only changed files
 * are hashed: the copy keeps the stat cache, and the index's mtime for git's racy-file check), and the tree is committed with `commit-tree`.
 * What merge prediction and change stats compare, before anything is committed for real.
 */
import { copyFile, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { git } from "./gitRunner";

/** The snapshot's commit id (its parent: HEAD). An unchanged work tree gives HEAD itself. */
export async function snapshotWorkTree(worktree: string): Promise<string> {
  const head = (await git(worktree, ["rev-parse", "HEAD"])).trim();
  const status = await git(worktree, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  if (status === "") return head;
  const scratch = await mkdtemp(join(tmpdir(), "arcadia-index-"));
  try {
    const indexPath = (await git(worktree, ["rev-parse", "--git-path", "index"])).trim();
    const index = join(scratch, "index");
    const real = isAbsolute(indexPath) ? indexPath : join(worktree, indexPath);
    await copyFile(real, index).catch(() => undefined);
    // The copy keeps the real index's mtime: git trusts a cached stat only for files older than the
    // index (racy git), so a file changed in the second the index was written, to the same size, is
    // hashed again. A copy stamped "now" made such a change invisible: "no changes", nothing to merge.
    await stat(real)
      .then((s) => utimes(index, s.atime, s.mtime))
      .catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    await git(worktree, ["add", "-A", "--", "."], { env });
    const tree = (await git(worktree, ["write-tree"], { env })).trim();
    const identity = {
      GIT_AUTHOR_NAME: "Arcadia",
      GIT_AUTHOR_EMAIL: "arcadia@localhost",
      GIT_COMMITTER_NAME: "Arcadia",
      GIT_COMMITTER_EMAIL: "arcadia@localhost",
    };
    return (await git(worktree, ["commit-tree", tree, "-p", head, "-m", "Arcadia: work tree snapshot"], { env: identity })).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

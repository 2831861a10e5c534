/**
 * A cheap print of a work tree's changes as they are now, for a poll that looks every second where
 * file events are lost: git's status (porcelain v2: HEAD's commit, each changed entry with its
 * index hash, every untracked file) and the size and mtime of each path it names. Whatever changes a
 * count of the work tree (changeStats.ts) changes the print: an edit to a clean file lists it, one
 * to a file already changed moves its size or mtime, a commit or a reset moves HEAD. One git process
 * that rewrites nothing (GIT_OPTIONAL_LOCKS=0: the index is left as it is), where a count runs seven.
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { git, nulFields } from "./gitRunner";

/** Spaces before the path in each kind of entry of `git status --porcelain=v2` (`? path` has one). */
const FIELDS_BEFORE_PATH: Readonly<Record<string, number>> = { "1": 8, "2": 9, u: 10, "?": 1, "!": 1 };

/** The print of `worktree` (its root); equal prints: nothing a count sees has changed. Rejects where git cannot read it. */
export async function workTreePrint(worktree: string): Promise<string> {
  const status = await git(worktree, ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"]);
  const stamps = await Promise.all(statusPaths(status).map((path) => stampOf(join(worktree, path))));
  return `${status}\n${stamps.join("\n")}`;
}

/** The paths `git status --porcelain=v2 -z` names (a rename's old path, which follows it, left out: it is gone). */
export function statusPaths(status: string): string[] {
  const paths: string[] = [];
  const fields = nulFields(status);
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    const spaces = FIELDS_BEFORE_PATH[entry.charAt(0)];
    if (spaces === undefined) continue; // a `# branch.…` header
    let at = 0;
    for (let n = 0; n < spaces && at >= 0; n++) at = entry.indexOf(" ", at + (n === 0 ? 0 : 1));
    if (at >= 0) paths.push(entry.slice(at + 1));
    if (entry.startsWith("2 ")) i++;
  }
  return paths;
}

/** What a file's change moves: its size, its mtime, its inode (replaced by a rename); "-" when it is not there. */
async function stampOf(path: string): Promise<string> {
  return lstat(path).then(
    (s) => `${s.size}:${s.mtimeMs}:${s.ino}`,
    () => "-",
  );
}

/**
 * A new worktree gets the ignored files its repository asks for: `.worktreeinclude` at the main
 * checkout's root (gitignore syntax, the convention Claude Code's desktop app and others follow)
 * names which of the main checkout's ignored files — `.env`, local settings, even `node_modules` —
 * are copied in, so an agent starts in a worktree that runs. Only files git itself ignores there
 * (tracked ones are in the worktree already, untracked-but-not-ignored ones are the user's work
 * in progress, never copied), matched by git itself. Copies are copy-on-write where the file system
 * can (`COPYFILE_FICLONE`: btrfs, XFS, APFS), plain copies elsewhere; a link is copied as the link it
 * is, never followed; an existing file in the worktree is never overwritten.
 */
import { constants } from "node:fs";
import { copyFile, lstat, mkdir, readlink, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { nulFields, runGit } from "./gitRunner";

export const WORKTREE_INCLUDE_FILE = ".worktreeinclude";

export interface WorktreeIncluded {
  /** Paths copied, relative to the repository's root. */
  copied: string[];
  /** Paths that could not be copied, with why. */
  failed: { path: string; reason: string }[];
}

/** Files copied at once: enough to hide each copy's latency, few enough for a file descriptor limit. */
const PARALLEL = 16;

export async function copyWorktreeIncludes(repo: string, worktree: string): Promise<WorktreeIncluded> {
  const wanted = await includedFiles(repo);
  const copied: string[] = [];
  const failed: WorktreeIncluded["failed"] = [];
  for (let i = 0; i < wanted.length; i += PARALLEL) {
    await Promise.all(
      wanted.slice(i, i + PARALLEL).map(async (path) => {
        try {
          if (await copyOne(join(repo, path), join(worktree, path))) copied.push(path);
        } catch (err) {
          failed.push({ path, reason: (err as NodeJS.ErrnoException).code ?? String(err) });
        }
      }),
    );
  }
  return { copied: copied.sort(), failed };
}

/** The main checkout's ignored files that `.worktreeinclude` names (none without the file). */
export async function includedFiles(repo: string): Promise<string[]> {
  const include = join(repo, WORKTREE_INCLUDE_FILE);
  if (
    !(await lstat(include).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return [];
  // Untracked files the include file's patterns match, and untracked files the repository ignores: both.
  const [matched, ignored] = await Promise.all([
    runGit(repo, ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${include}`]),
    runGit(repo, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard"]),
  ]);
  if (matched.code !== 0 || ignored.code !== 0) return [];
  const isIgnored = new Set(nulFields(ignored.stdout));
  // Never another worktree's files (they live under the main checkout too).
  return nulFields(matched.stdout).filter((path) => isIgnored.has(path) && !path.startsWith(".claude/worktrees/"));
}

/** False when something is already there (the worktree's own file wins). */
async function copyOne(from: string, to: string): Promise<boolean> {
  const [source, existing] = await Promise.all([lstat(from), lstat(to).catch(() => undefined)]);
  if (existing) return false;
  await mkdir(dirname(to), { recursive: true });
  if (source.isSymbolicLink()) await symlink(await readlink(from), to);
  else if (source.isFile()) await copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  else return false;
  return true;
}

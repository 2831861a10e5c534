/**
 * Whether git, started in a folder (a command's; the collision guard's, beside an edited file),
 * would use a repository other than the workspace's own. Git walks up from its folder to the first `.git` (folder, or file naming one: `gitdir:`)
 * or to the first folder that is itself laid out as a git directory (a bare repository), and runs
 * what that repository's config says (`core.fsmonitor` on every `git status`, filters, diff
 * drivers). Trusted: a workspace folder's own `.git` folder (the user's clone; a sandboxed command
 * cannot write it), `.git` files leading into one (its linked worktrees, submodules), and a
 * workspace folder's `.git` file leading out of the workspace (the folder is a worktree or a
 * submodule of a repository elsewhere). Not
 * trusted: any other `.git` between the workspace folder and the command's folder, a folder on
 * that way — the workspace folder itself included — shaped like a git directory, a `.git` file or
 * link leading anywhere else inside the workspace (an unpacked archive can ship `gitdir: meta`
 * with `meta/config` beside it), and the inside of a `.git` folder.
 */
import { lstat, readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isInside, realpathAllowingMissing } from "../util";

export type DiskEntry = "file" | "directory" | "symlink" | "other";

/** What the check reads (a port: the command policy's disk extends it). */
export interface RepositoryDisk {
  /** Symlinks resolved; a missing tail kept; a dangling link followed to its target. */
  realpath(path: string): Promise<string>;
  /** What is at `path` itself (a final symlink is not followed); undefined when nothing is. */
  entry(path: string): Promise<DiskEntry | undefined>;
  /** A small file's text (a `.git` file's `gitdir:` line), or undefined. */
  readText(path: string, maxBytes: number): Promise<string | undefined>;
}

export const nodeRepositoryDisk: RepositoryDisk = {
  realpath: (path) => realpathAllowingMissing((p) => realpath(p), path),
  async entry(path) {
    try {
      const s = await lstat(path);
      return s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
    } catch {
      return undefined;
    }
  },
  async readText(path, maxBytes) {
    try {
      const s = await stat(path);
      return s.isFile() && s.size <= maxBytes ? await readFile(path, "utf8") : undefined;
    } catch {
      return undefined;
    }
  },
};

/**
 * Why git in `cwd` may follow a repository the user did not make, or undefined. `root`: the
 * innermost workspace folder holding `cwd`; all real paths.
 */
export async function foreignRepository(root: string, cwd: string, folders: readonly string[], disk: RepositoryDisk): Promise<string | undefined> {
  const parts = relative(root, cwd).split(sep).filter(Boolean);
  if (parts.some((p) => p.toLowerCase() === ".git"))
    return `its folder ${cwd} is inside a .git folder, where git takes the folder for a repository with its own configuration`;
  const owned = await ownRepositories(folders, disk);
  let dir = root;
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) dir = join(dir, parts[i - 1] as string);
    if (await looksLikeGitDirectory(dir, disk)) {
      return (
        `its folder is in a folder shaped like a git directory (${dir}: HEAD and config/objects/refs), which git would use as a repository with ` +
        `its own configuration`
      );
    }
    const why = await untrustedGitEntry(dir, i === 0, owned, folders, disk);
    if (why) return why;
  }
  return undefined;
}

/** The `.git` folders at the workspace folders' roots: the user's own repositories. */
async function ownRepositories(folders: readonly string[], disk: RepositoryDisk): Promise<string[]> {
  const own: string[] = [];
  for (const folder of folders) if ((await disk.entry(join(folder, ".git"))) === "directory") own.push(join(folder, ".git"));
  return own;
}

async function untrustedGitEntry(
  dir: string,
  atRoot: boolean,
  owned: readonly string[],
  folders: readonly string[],
  disk: RepositoryDisk,
): Promise<string | undefined> {
  const dotGit = join(dir, ".git");
  const kind = await disk.entry(dotGit);
  if (kind === undefined) return undefined;
  if (kind === "directory") {
    if (owned.includes(dotGit)) return undefined;
    return `its folder is in another git repository (${dotGit}), whose configuration git would follow (it can run programs, e.g. core.fsmonitor)`;
  }
  const target = kind === "symlink" ? await disk.realpath(dotGit).catch(() => undefined) : await gitdirOf(dotGit, disk);
  if (target === undefined) return `its folder holds a .git ${kind} that names no repository git can check (${dotGit})`;
  if (owned.some((own) => isInside(target, own))) return undefined;
  // A workspace folder that is a linked worktree or a submodule of a repository elsewhere: the user's.
  const outside = !folders.some((f) => isInside(target, f));
  if (atRoot && outside) return undefined;
  const where = outside ? "a repository that is not the workspace's own" : "a repository inside the workspace that is not the workspace's own";
  return `its folder's .git ${kind === "symlink" ? "link" : "file"} (${dotGit}) leads to ${target}, ${where} (its configuration can run programs)`;
}

/** The real path a `.git` file's `gitdir: <path>` line names, relative to the file's folder. */
async function gitdirOf(dotGit: string, disk: RepositoryDisk): Promise<string | undefined> {
  const text = await disk.readText(dotGit, 4096);
  const line = text === undefined ? undefined : /^gitdir: *(.+?)\s*$/m.exec(text)?.[1];
  if (line === undefined) return undefined;
  return disk.realpath(isAbsolute(line) ? line : resolve(dirname(dotGit), line)).catch(() => undefined);
}

/** HEAD plus config, objects, refs or commondir: what git could take for a repository (erring wide). */
async function looksLikeGitDirectory(dir: string, disk: RepositoryDisk): Promise<boolean> {
  if ((await disk.entry(join(dir, "HEAD"))) === undefined) return false;
  for (const name of ["config", "objects", "refs", "commondir"]) if ((await disk.entry(join(dir, name))) !== undefined) return true;
  return false;
}

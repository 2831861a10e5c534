/**
 * What the collision guard asks the disk, never the text: which file a path names (symlinks
 * resolved, a dangling one followed to the file it will create; the device and inode, so two hard
 * links to one file are one file) and whether it is still uncommitted (an agent's edit that was
 * committed no longer collides). git runs as a child process with a deadline, so the extension
 * host never waits on it.
 */
import { realpath, stat } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { foreignRepository, nodeRepositoryDisk, runGit } from "../git";
import { isInside, realpathAllowingMissing } from "../util";

/** One file, however it was named. */
export interface FileIdentity {
  /** Its real path; for a file not created yet, where it will be (through a dangling link too). */
  path: string;
  /** `dev:ino` while it exists: a hard link is another path to the same id. */
  id?: string;
}

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.path === b.path || (a.id !== undefined && a.id === b.id);
}

export interface CollisionDisk {
  identify(path: string): Promise<FileIdentity>;
  /** True unless git says the file is unchanged against HEAD (not a repository, or git failing: true). */
  uncommitted(path: string): Promise<boolean>;
}

const GIT_DEADLINE_MS = 5000;

async function identify(path: string): Promise<FileIdentity> {
  const real = await realpathAllowingMissing((p) => realpath(p), path).catch(() => path);
  const s = await stat(real, { bigint: true }).catch(() => undefined);
  return s ? { path: real, id: `${s.dev}:${s.ino}` } : { path: real };
}

/** The nearest folder of `path` that exists, a real path. */
async function existingFolder(path: string): Promise<string | undefined> {
  for (let at = dirname(path); ; at = dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return real;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * `git status` of one file, run only where git would use the workspace's own repository
 * (git/repositoryTrust.ts): an agent can plant `sub/.git` with a config that runs programs, and
 * this git runs in the extension host, outside any sandbox. Elsewhere (or outside the workspace)
 * the file counts as uncommitted, erring towards a warning.
 */
async function gitStatusOf(path: string, folders: readonly string[]): Promise<string | undefined> {
  const folder = await existingFolder(path);
  if (folder === undefined) return undefined;
  const real: string[] = [];
  for (const f of folders) real.push(await realpath(f).catch(() => f));
  const root = real.filter((f) => isInside(folder, f)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined || (await foreignRepository(root, folder, real, nodeRepositoryDisk)) !== undefined) return undefined;
  // `--` keeps a name starting with "-" a path.
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--ignore-submodules=all", "--", relative(folder, path)];
  const result = await runGit(folder, args, { timeoutMs: GIT_DEADLINE_MS });
  return result.code === 0 ? result.stdout : undefined;
}

/** The disk for the workspace folders `folders()` names (read at each check: folders come and go). */
export function nodeCollisionDisk(folders: () => readonly string[]): CollisionDisk {
  return {
    identify,
    async uncommitted(path) {
      const status = await gitStatusOf(path, folders());
      return status === undefined || status.length > 0;
    },
  };
}

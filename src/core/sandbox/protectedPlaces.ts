/**
 * What a sandboxed command may read but never write in the folders it may write, read from the
 * disk as it is now (protectedNames.ts says why each matters):
 * - the protected names at each writable root: read-only when they exist; `.git`, `.claude`,
 *   `.vscode` covered by an empty read-only stand-in when missing (standIns.ts);
 * - the git folder a `.git` file leads to (a bare layout `.bare`), its commondir, the files its
 *   config includes, and the folder core.hooksPath names (`.husky`), when inside a writable
 *   folder, for the top-level repository and every nested one; a missing hooks folder gets a
 *   stand-in too, a missing included file asks;
 * - every nested `.git` (nestedRepositories.ts) and what a `.git` file there leads to;
 * - "pins": each folder between a writable root and a nested read-only place, so that the folder
 *   holding it cannot be moved aside and made again without it (bwrapArguments.ts).
 * What cannot be held read-only by a mount is a concern, and the command asks: a protected name
 * that is a symbolic link (the link's folder is writable; so would be what it leads to).
 */
import { readlinkSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { isInside } from "../util";
import { commonDirOf, gitDirOf, hooksPathOf, includedConfigs } from "./gitPlaces";
import type { FolderWalks } from "./folderWalks";
import { nestedRepositories } from "./nestedRepositories";
import { isFolderNow, kindNow, type PathKind } from "./pathKind";
import { PROTECTED_NAMES, STUB_WHEN_MISSING } from "./protectedNames";
import type { Mount } from "./sandboxLayout";
import { unreadableStamp } from "./unreadableFolders";

export interface ProtectedPlaces {
  mounts: Mount[];
  /** Missing places covered by an empty read-only folder, made and held on the host (standIns.ts). */
  standIns: string[];
  /** Folders made mount points so that they cannot be renamed or removed from inside. */
  pins: string[];
  /** Why the command must ask instead (plain words, one per place). */
  concerns: string[];
  /** Every nested `.git` seen, to tell afterwards which ones the command made (leftBehind.ts). */
  repositories: string[];
  /** Protected names missing at a writable root and not covered by a stand-in (`.mcp.json`, `.envrc`…): looked for afterwards. */
  missing: string[];
  /** Folders the walk could not read, with their stamp (unreadableFolders.ts): the look afterwards tells whether the command changed them. */
  unreadable: Record<string, string | undefined>;
}

/** `walks`: the records the walk for nested repositories believes (folderWalks.ts; default: the extension host's). */
export async function protectedPlaces(writable: readonly string[], isStandIn: (path: string) => boolean, walks?: FolderWalks): Promise<ProtectedPlaces> {
  const out: ProtectedPlaces = { mounts: [], standIns: [], pins: [], concerns: [], repositories: [], missing: [], unreadable: {} };
  const inWritable = (path: string) => writable.find((root) => isInside(path, root));
  const readOnly = (path: string) => {
    const root = inWritable(path);
    if (root === undefined) return;
    out.mounts.push({ kind: "readOnly", path });
    for (let dir = dirname(path); dir !== root && isInside(dir, root); dir = dirname(dir)) out.pins.push(dir);
  };
  const standIn = (path: string) => {
    out.mounts.push({ kind: "emptyFolder", path });
    out.standIns.push(path);
  };
  const link = async (path: string, root: string) => {
    const target = readlinkNow(path);
    out.concerns.push(`${shown(path, root)} is a symbolic link (to ${target}): the sandbox cannot keep what it leads to read-only`);
  };

  for (const root of writable) {
    // The walk for nested repositories goes on while the top of the root is looked at.
    const walk = nestedRepositories(root, readOnlyAt(root), undefined, walks);
    const paths = PROTECTED_NAMES.map((name) => `${root}${sep}${name}`);
    // Asked before the disk: a stand-in made for another command is held again, never taken for the user's folder.
    const ours = paths.map((path) => isStandIn(path));
    const kinds = await Promise.all(paths.map((path, i) => (ours[i] ? undefined : kindOf(path))));
    for (const [i, path] of paths.entries()) {
      const kind = kinds[i];
      if (ours[i]) standIn(path);
      else if (kind === "symlink") await link(path, root);
      else if (kind === "directory" || kind === "file") out.mounts.push({ kind: "readOnly", path });
      else if (kind === undefined && STUB_WHEN_MISSING.has(PROTECTED_NAMES[i] as string)) standIn(path);
      else if (kind === undefined) out.missing.push(path);
    }
    await repositoryPlaces(root, `${root}${sep}.git`);
    const nested = await walk;
    if (nested.incomplete) out.concerns.push(`${root} has too many folders to look for nested repositories in before each command`);
    out.repositories.push(...nested.found);
    for (const folder of nested.unreadable) out.unreadable[folder] = unreadableStamp(folder);
    for (const dotGit of nested.found) {
      if ((await kindOf(dotGit)) === "symlink") await link(dotGit, root);
      else readOnly(dotGit);
      await repositoryPlaces(root, dotGit);
    }
  }
  return out;

  /** The git folder behind a `.git` file, its commondir, the files its config includes and its hooks folder, when inside a writable folder. */
  async function repositoryPlaces(root: string, dotGit: string): Promise<void> {
    const gitDir = await gitDirOf(dotGit);
    if (gitDir === undefined) return;
    const common = await commonDirOf(gitDir);
    for (const dir of [gitDir, common]) if (dir !== undefined && dir !== dotGit && !(await isLink(dir))) readOnly(dir);
    const configs = [...(common ? [`${common}${sep}config`] : []), `${gitDir}${sep}config`];
    const included = await includedConfigs(configs);
    for (const include of included) {
      if (inWritable(include) === undefined) continue;
      const kind = await kindOf(include);
      if (kind === "symlink") await link(include, root);
      else if (kind === "file" || kind === "directory") readOnly(include);
      else out.concerns.push(`the git config includes ${shown(include, root)}, which does not exist yet: a command could write what git then runs`);
    }
    const hooks = await hooksPathOf([...configs, ...included], dirname(dotGit));
    if (hooks === undefined || inWritable(hooks) === undefined) return;
    const kind = await kindOf(hooks);
    if (kind === "symlink") await link(hooks, root);
    else if (kind === "directory") readOnly(hooks);
    else if (kind === undefined && isStandIn(hooks)) standIn(hooks);
    else if (kind === undefined && (await isFolder(dirname(hooks)))) {
      standIn(hooks);
      for (let dir = dirname(hooks); dir !== root && isInside(dir, root); dir = dirname(dir)) out.pins.push(dir);
    } else out.concerns.push(`core.hooksPath names ${shown(hooks, root)}, which the sandbox cannot keep read-only`);
  }
}

/**
 * The protected folders at a root: read-only to the command whole (or stand-ins), so nothing new
 * can appear inside; the walk need not enter them (`.claude/worktrees` holds whole checkouts).
 */
export function readOnlyAt(root: string): Set<string> {
  return new Set(PROTECTED_NAMES.map((name) => `${root}${sep}${name}`));
}

/** What is at `path`, links not followed (pathKind.ts: synchronous, never throws). */
const kindOf = async (path: string): Promise<PathKind> => kindNow(path);
const isLink = async (path: string) => kindNow(path) === "symlink";
const isFolder = async (path: string) => isFolderNow(path);

function readlinkNow(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "?";
  }
}

function shown(path: string, root: string): string {
  return relative(root, path) || path;
}

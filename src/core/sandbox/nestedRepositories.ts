/**
 * Every `.git` (folder, file or link) below a folder, but for the folder's own: a nested
 * repository's config and hooks run at the next `git status` or commit there (VS Code's Git
 * opens one as soon as a file in it is open), so a sandbox keeps each one read-only as it keeps
 * the top-level `.git`. A walk of the folder (links are not followed, `.git` folders not entered);
 * its cost per command is measured in bench/sandbox.ts. Past MAX_FOLDERS folders the walk stops
 * and says so: the command then asks rather than run with repositories unseen.
 *
 * Each folder is looked at through FolderWalks (folderWalks.ts): read again only when its change
 * time says it may have changed since it was last read. Synchronous, SLICE folders at a time with
 * a turn of the event loop between slices: a small workspace is looked at at once, with no round
 * trip through libuv's threads per folder (on a loaded machine each waited milliseconds to be
 * scheduled), and a large one never holds the extension host up for long.
 *
 * A folder it may not read (folderWalks.ts) is handed to `open` (the look after a command reopens
 * the ones that command made: leftBehind.ts) and read again if that opened it; else it is listed as
 * unreadable: what it holds was not seen, which the caller must never take for nothing.
 */
import { join } from "node:path";
import { folderWalks, type FolderWalks } from "./folderWalks";

/** Folders looked at between two turns of the event loop (a few milliseconds when each is read). */
const SLICE = 256;

/** Enough for a large repository with its node_modules; a home folder is far bigger (and asks anyway). */
export const MAX_FOLDERS = 60_000;

export interface NestedRepositories {
  /** Paths of the `.git` entries found (not the top-level one). */
  found: string[];
  /** The walk stopped at MAX_FOLDERS: some folders were not looked at. */
  incomplete: boolean;
  /** Folders it could not list or enter (no permission), not gone into. */
  unreadable: string[];
}

/** `skip`: folders at the top not to enter (read-only to the command already: `.claude` with its worktrees, `.vscode`). */
export async function nestedRepositories(
  top: string,
  skip: ReadonlySet<string> = new Set(),
  maxFolders = MAX_FOLDERS,
  walks: FolderWalks = folderWalks,
  open: (folder: string) => boolean = () => false,
): Promise<NestedRepositories> {
  const walk = walks.walk();
  const found: string[] = [];
  const unreadable: string[] = [];
  const queue = [top];
  let seen = 0;
  while (seen < queue.length) {
    if (seen > 0 && seen % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const folder = queue[seen++] as string;
    let listing = walk.listing(folder);
    if (listing.unreadable && open(folder)) listing = walk.listing(folder);
    if (listing.unreadable) {
      unreadable.push(folder);
      continue;
    }
    if (listing.dotGit && folder !== top) found.push(join(folder, ".git"));
    // `skip` names folders at the top only: below it, no look-up per folder.
    if (folder === top) queue.push(...listing.folders.filter((path) => !skip.has(path)));
    else queue.push(...listing.folders);
    if (queue.length > maxFolders) return { found, incomplete: true, unreadable };
  }
  return { found, incomplete: false, unreadable };
}

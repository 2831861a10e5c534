/**
 * Every `.git` (folder, file or link) below a folder, but for the folder's own: a nested
 * repository's config and hooks run at the next `git status` or commit there (VS Code's Git
 * opens one as soon as a file in it is open), so a sandbox keeps each one read-only as it keeps
 * the top-level `.git`. A walk of the folder (links are not followed, `.git` folders not entered);
 * its cost per command is measured in bench/sandbox.ts. Past MAX_FOLDERS folders the walk stops
 * and says so: the command then asks rather than run with repositories unseen.
 *
 * Read synchronously, SLICE folders at a time with a turn of the event loop between slices: a
 * small workspace is read at once, with no round trip through libuv's threads per folder (on a
 * loaded machine each waited milliseconds to be scheduled), and a large one (tens of thousands of
 * folders, where the reading itself is what costs) never holds the extension host up for long.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders read between two turns of the event loop (a few milliseconds of reading). */
const SLICE = 256;

/** Enough for a large repository with its node_modules; a home folder is far bigger (and asks anyway). */
export const MAX_FOLDERS = 60_000;

export interface NestedRepositories {
  /** Paths of the `.git` entries found (not the top-level one). */
  found: string[];
  /** The walk stopped at MAX_FOLDERS: some folders were not looked at. */
  incomplete: boolean;
}

/** `skip`: folders not to enter (read-only to the command already: `.claude` with its worktrees, `.vscode`). */
export async function nestedRepositories(top: string, skip: ReadonlySet<string> = new Set(), maxFolders = MAX_FOLDERS): Promise<NestedRepositories> {
  const found: string[] = [];
  const queue = [top];
  let seen = 0;
  while (seen < queue.length) {
    if (seen > 0 && seen % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const folder = queue[seen++] as string;
    for (const entry of list(folder)) {
      if (entry.name === ".git") {
        if (folder !== top) found.push(join(folder, entry.name));
      } else if (entry.isDirectory() && !skip.has(join(folder, entry.name))) queue.push(join(folder, entry.name));
    }
    if (queue.length > maxFolders) return { found, incomplete: true };
  }
  return { found, incomplete: false };
}

/** A folder's entries; none when it cannot be read (gone meanwhile, no permission). */
function list(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Every `.git` (folder, file or link) below a folder, but for the folder's own: a nested
 * repository's config and hooks run at the next `git status` or commit there (VS Code's Git
 * opens one as soon as a file in it is open), so a sandbox keeps each one read-only as it keeps
 * the top-level `.git`. A walk of the folder (links are not followed, `.git` folders not entered);
 * its cost per command is measured in bench/sandbox.ts. Past MAX_FOLDERS folders the walk stops
 * and says so: the command then asks rather than run with repositories unseen.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

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
  let seen = 0;
  let queue = [top];
  while (queue.length > 0) {
    const next: string[] = [];
    // One level at a time, its folders read together: the walk waits on the disk, not on itself.
    const listed = await Promise.all(queue.map((folder) => readdir(folder, { withFileTypes: true }).catch((): Dirent[] => [])));
    for (const [i, entries] of listed.entries()) {
      const folder = queue[i] as string;
      for (const entry of entries) {
        if (entry.name === ".git") {
          if (folder !== top) found.push(join(folder, entry.name));
        } else if (entry.isDirectory() && !skip.has(join(folder, entry.name))) next.push(join(folder, entry.name));
      }
    }
    seen += queue.length;
    if (seen + next.length > maxFolders) return { found, incomplete: true };
    queue = next;
  }
  return { found, incomplete: false };
}

/**
 * The project folders whose sessions belong to a workspace: each workspace folder's own, and those
 * of its git worktrees under `.claude/worktrees/<name>` (Claude Code's `--worktree` layout, and
 * Arcadia's), whose slugs are the workspace's slug + `--claude-worktrees-<name>`.
 */
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";

const WORKTREE_SLUG_PART = "--claude-worktrees-";

export interface SessionFolder {
  projectDir: string;
  /** The worktree's name, for a worktree's folder. */
  worktree?: string;
}

/** `workspaceProjectDirs`: the project folders of the workspace folders (projectDirFor), all under `projectsRoot`. */
export async function sessionFolders(projectsRoot: string, workspaceProjectDirs: readonly string[]): Promise<SessionFolder[]> {
  let names: string[] = [];
  try {
    names = await readdir(projectsRoot);
  } catch {
    // No sessions anywhere yet.
  }
  const folders = new Map<string, SessionFolder>();
  for (const dir of workspaceProjectDirs) {
    folders.set(dir, { projectDir: dir });
    const prefix = `${basename(dir)}${WORKTREE_SLUG_PART}`;
    for (const name of names) {
      if (name.startsWith(prefix) && name.length > prefix.length)
        folders.set(join(projectsRoot, name), { projectDir: join(projectsRoot, name), worktree: name.slice(prefix.length) });
    }
  }
  return [...folders.values()];
}

/**
 * What an agent working in a worktree of its own finds in its environment, so that what it starts
 * there does not collide with the same thing started in another worktree: its number
 * (`ARCADIA_WORKTREE_INDEX`, the agent's, unique among the window's agents) and a port offset
 * (`ARCADIA_PORT_OFFSET`, ten ports apart) a dev server can add to its port. Nothing for an agent in
 * the main checkout: that is the user's own.
 */
import { sep } from "node:path";
import { WORKTREES_FOLDER } from "./worktreeCreate";

/** Ports each worktree may take above its offset. */
export const PORTS_PER_WORKTREE = 10;

export function worktreeEnv(cwd: string, index: number): Record<string, string> | undefined {
  const parts = cwd.split(sep);
  const [a, b] = WORKTREES_FOLDER.split(sep);
  const at = parts.findIndex((p, i) => p === a && parts[i + 1] === b && (parts[i + 2] ?? "") !== "");
  if (at < 0) return undefined;
  return { ARCADIA_WORKTREE_INDEX: String(index), ARCADIA_PORT_OFFSET: String(index * PORTS_PER_WORKTREE) };
}

/**
 * A race's members' worktrees, watched while its compare tab is open, whatever changes them — the
 * agent, the user's editor, a terminal: each worktree's files (those git does not ignore) and its git
 * state in the repository (its HEAD, index and branch: a `git add`, a commit or a switch from a
 * terminal), by the worktrees' own watch (worktrees/worktreeWatch.ts). A burst of changes is told once,
 * WORKTREE_QUIET_MS after the last; a burst of ignored files alone (a build, a check's logs) is not told.
 * git is asked about new paths only while the tab may act on it (`asking()`: shown); hidden, every
 * burst is told as it is (the tab only notes that something changed).
 */
import { memberBranch, memberPath, type Race } from "../../core/races";
import { combinedDisposable, type Disposable, type WatchFactory } from "../../core/util";
import { WorktreeWatch, type WorktreeWatchDeps, worktreeTreeWatch } from "../worktrees/worktreeWatch";
import { baseFiles } from "./baseWatch";

/**
 * Folders watched per worktree at most: an agent can make folders without end in its worktree, and
 * each would hold one of the user's inotify watches (max_user_watches; 8,192 on older kernels), the
 * ones VS Code and every other watcher need too. Five members at most hold 20,000.
 */
export const MEMBER_TREE_FOLDERS = 4000;

/** How a member's worktree is watched: every folder git does not ignore, at most `maxFolders` of them. */
export function memberTreeWatch(log: (message: string) => void, maxFolders = MEMBER_TREE_FOLDERS): WatchFactory {
  return worktreeTreeWatch(log, maxFolders, "compare");
}

/** A race's members' worktrees, each watched as a worktree card's is (worktreeWatch.ts). */
export interface MemberWatchDeps extends WorktreeWatchDeps {
  race(): Race | undefined;
}

/**
 * Calls `onChange(member)` once a member's worktree may have changed, until disposed; `ready`
 * resolves once every watch is in place. A worktree that cannot be watched (not there) is left out:
 * its agent's events and the tab's next opening still read it.
 */
export function watchMembers(deps: MemberWatchDeps, onChange: (member: string) => void, asking: () => boolean): Disposable & { ready: Promise<void> } {
  const race = deps.race();
  const trees = (race?.members ?? []).map((m) => {
    const branch = memberBranch(m);
    return new WorktreeWatch(deps, {
      root: memberPath(race!, m),
      gitFiles: (folders) => baseFiles(folders, branch),
      tell: () => onChange(m.name),
      asking,
      who: "compare",
    });
  });
  const ready = Promise.all(trees.map((tree) => tree.start())).then(() => undefined);
  return Object.assign(combinedDisposable(...trees), { ready });
}

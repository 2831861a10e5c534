/**
 * What tells a worktree agent's card that its worktree changed outside its agent's tools — a file
 * edited, added or removed by hand, a commit or a reset from a terminal — so that its count
 * (`N files · +a −b`) is made again within about a second. Two cues, one per worktree however many
 * files it holds:
 * - its watch (worktreeWatch.ts, as a race's compare tab follows its members): the folders git does
 *   not ignore, its HEAD and its branch's ref; a burst told once it settles, a burst of ignored files
 *   (node_modules, build output) not at all. Not its index: a count does not read it, and the agent's
 *   own `git add`s and `git status`es would wake a count each for nothing;
 * - the floor where file events are lost (WSL2, network drives, a folder past the watch's limit): the
 *   safety poll shared with the transcripts (util/safetyPoll.ts) looks at a cheap print of the
 *   worktree (core/git workTreePrint: one `git status`, no count) — every second while the worktree
 *   has no watch, else backing off to 30 s while nothing changes (a working agent's hooks recount at
 *   each tool's end: its count is never older than its last tool), and never sooner than a second
 *   after the watch's last event (its own cue reads all a look would).
 * Nothing a count does wakes either: it writes no file of the worktree, nor its HEAD or ref.
 */
import { join } from "node:path";
import type { GitFolders, WorktreeInfo } from "../../core/git";
import { combinedDisposable, type Disposable, errorMessage, type SafetyPoll } from "../../core/util";
import { WorktreeWatch, type WorktreeWatchDeps } from "./worktreeWatch";

/**
 * Folders watched per card's worktree at most: fifty agents' worktrees hold at most 50,000 of the
 * user's inotify watches (a race's tab watches its members apart, sharing the kernel's watch of a
 * folder). Past it, edits in the folders left out are found by the poll.
 */
export const CARD_TREE_FOLDERS = 1000;

export interface WorktreeFollowDeps extends WorktreeWatchDeps {
  /** The floor under lost file events (the process's shared poll). */
  poll: SafetyPoll;
  /** A cheap print of the worktree's changes (core/git workTreePrint); equal prints, nothing to count. */
  print(worktree: string): Promise<string>;
}

/**
 * Follows `info`'s worktree until disposed, calling `onChange` when a count may differ. `ready` resolves once its
 * watches are in place (or found impossible: the poll is then all there is). `counting()`: a count
 * starts, whatever asked for it (a hook, a turn's end, the watch): the poll looks for changes since.
 */
export type FollowWorktree = (info: WorktreeInfo, onChange: () => void) => FollowedWorktree;

export interface FollowedWorktree extends Disposable {
  ready: Promise<void>;
  counting(): void;
}

/** What a card's count depends on in git besides the files: the worktree's HEAD (a switch, a reset) and its branch's ref (a commit). */
export function cardGitFiles(folders: GitFolders, branch: string): string[] {
  return [join(folders.gitDir, "HEAD"), join(folders.commonDir, "refs", "heads", ...branch.split("/"))];
}

export function worktreeFollower(deps: WorktreeFollowDeps): FollowWorktree {
  return (info, onChange) => {
    let closed = false;
    // undefined: git could not read it (the worktree removed meanwhile); that is no news to count.
    const printNow = () => deps.print(info.path).catch(() => undefined);
    // Taken as each count starts (`counting`): a change after it is found by the next check. None yet: any print is news.
    let last: Promise<string | undefined> = Promise.resolve(undefined);
    const safety = deps.poll.add(async () => {
      const before = await last;
      const now = printNow();
      last = now;
      const print = await now;
      if (closed) return false;
      if (print !== before && print !== undefined) onChange();
      // No watch: the poll is all there is (at its base rate), unless there is no worktree to read.
      // A working agent with a watch backs off like an idle one: its hooks recount at each tool's end,
      // and fifty working agents polled every second were fifty `git status` a second.
      return print !== before || (!watch.watching && print !== undefined);
    });
    const tell = () => {
      if (!closed) onChange();
    };
    const watch = new WorktreeWatch(
      deps,
      { root: info.path, gitFiles: (folders) => cardGitFiles(folders, info.branch), tell, asking: () => true, who: "card" },
      () => safety.heard(),
    );
    const ready = watch.start().catch((err: unknown) => deps.log(`card: ${info.path} is not watched (${errorMessage(err)})`));
    // Each count takes the print again: a change it counted (its agent's edits before a hook) is not counted twice.
    const counting = () => void (last = printNow());
    // Newest first: closed before the watch and the poll go, so nothing they had under way is told.
    return Object.assign(combinedDisposable(safety, watch, { dispose: () => void (closed = true) }), { ready, counting });
  };
}

/**
 * What the queue tab's merge forecasts ("merges cleanly", "conflicts in …", "landed in main")
 * depend on, watched while the tab is open: the queue's base branch — its ref, packed-refs, the
 * main checkout's HEAD and index, the files a race's compare tab follows (races/baseWatch.ts
 * baseFiles). Without it the tab read its figures only when the queue changed or an agent finished
 * a turn, so after Land Finished Work… a landed task still read "merges cleanly". Follows the
 * queue's repository and base as they change (a new queue); one call per burst of writes.
 */
import type { GitFolders } from "../../core/git";
import type { Disposable, Event } from "../../core/util";
import { BASE_MOVE_QUIET_MS, baseFiles } from "../races/baseWatch";
import type { HeadWatch, HeadWatches } from "../worktrees/headWatches";

export interface QueueBaseWatchDeps {
  heads: HeadWatches;
  /** The queue's main checkout and base branch now (null: no queue). */
  queue(): { repo: string; base: string } | null;
  /** The queue changed (it may be another one, on another base). */
  onDidChange: Event<unknown>;
  /** Where the main checkout's git folders are (git says). */
  gitFolders(repo: string): Promise<GitFolders | undefined>;
}

/** Calls `onMove` once the base may have moved and BASE_MOVE_QUIET_MS passed without another write, until disposed. */
export function watchQueueBase(deps: QueueBaseWatchDeps, onMove: () => void): Disposable {
  let disposed = false;
  let followed = "";
  let watches: (HeadWatch | undefined)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const moved = () => {
    clearTimeout(timer);
    timer = setTimeout(() => !disposed && onMove(), BASE_MOVE_QUIET_MS);
    timer.unref?.();
  };
  const unwatch = () => {
    for (const watch of watches) watch?.close();
    watches = [];
  };
  const follow = () => {
    const queue = deps.queue();
    const key = queue ? `${queue.repo}\0${queue.base}` : "";
    if (key === followed) return;
    followed = key;
    unwatch();
    if (!queue) return;
    void deps.gitFolders(queue.repo).then((found) => {
      if (disposed || followed !== key || !found) return;
      watches = baseFiles(found, queue.base).map((file) => deps.heads.watch(file, moved));
    });
  };
  const changes = deps.onDidChange(follow);
  follow();
  return {
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      changes.dispose();
      unwatch();
    },
  };
}

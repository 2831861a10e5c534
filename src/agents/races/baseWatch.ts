/**
 * What a race's merge forecasts depend on in its main checkout, watched while its compare tab is
 * open: the base branch's ref (a commit on it, from any checkout of the repository), packed-refs
 * (refs packed by git gc), the main checkout's HEAD (a switch: Pick asks for the base checked out)
 * and its index (a commit, a merge, a file staged). One watch per file however many tabs follow it
 * (HeadWatches). A plain edit in the main checkout, not staged, changes none of these: it is seen at
 * the next read (a member's agent works, the tab is shown again).
 */
import { join } from "node:path";
import type { GitFolders } from "../../core/git";
import type { Disposable } from "../../core/util";
import type { HeadWatches } from "../worktrees/headWatches";

/** The files whose change can change a forecast of merging into `base`. */
export function baseFiles(folders: GitFolders, base: string): string[] {
  return [
    join(folders.gitDir, "HEAD"),
    join(folders.gitDir, "index"),
    join(folders.commonDir, "packed-refs"),
    join(folders.commonDir, "refs", "heads", ...base.split("/")),
  ];
}

/** A commit writes the index, the ref and its log within a few ms: one call for the burst. */
export const BASE_MOVE_QUIET_MS = 100;

/**
 * Calls `onMove` once one of them may have changed and BASE_MOVE_QUIET_MS passed without another
 * change, until disposed. `folders`: where git says they are. A file that cannot be watched is
 * left out: the next read sees it.
 */
export function watchBase(heads: HeadWatches, folders: Promise<GitFolders | undefined>, base: string, onMove: () => void): Disposable {
  let disposed = false;
  let watches: { close(): void }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const moved = () => {
    clearTimeout(timer);
    timer = setTimeout(() => !disposed && onMove(), BASE_MOVE_QUIET_MS);
    timer.unref?.();
  };
  void folders.then((found) => {
    if (disposed || !found) return;
    watches = baseFiles(found, base).flatMap((file) => heads.watch(file, moved) ?? []);
  });
  return {
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      for (const w of watches) w.close();
      watches = [];
    },
  };
}

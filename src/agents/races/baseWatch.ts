/**
 * What a race's merge forecasts depend on in its main checkout, watched while its compare tab is
 * open: the base branch's ref (a commit on it, from any checkout of the repository), packed-refs
 * (refs packed by git gc), the main checkout's HEAD (a switch: Pick asks for the base checked out),
 * its index (a commit, a merge, a file staged), and its copies of the files the members change (an
 * uncommitted edit there makes Pick refuse). Not the whole work tree: only a file a merge touches
 * can block it. One watch per file however many tabs follow it (HeadWatches).
 */
import { join } from "node:path";
import type { GitFolders } from "../../core/git";
import type { Disposable } from "../../core/util";
import type { Race } from "../../core/races";
import type { HeadWatches } from "../worktrees/headWatches";
import type { RaceFigures } from "./raceFigures";

/** The git files whose change can change a forecast of merging into `base`. */
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

export interface BaseWatchDeps {
  heads: HeadWatches;
  /** The race now (undefined: gone). */
  race(): Race | undefined;
  figures: Pick<RaceFigures, "of" | "onDidChange">;
  /** Where the main checkout's git folders are (git says). */
  gitFolders(repo: string): Promise<GitFolders | undefined>;
}

/**
 * Calls `onMove` once something a forecast depends on may have changed and BASE_MOVE_QUIET_MS
 * passed without another change, until disposed. The files the members change are watched as
 * their figures tell them. A file that cannot be watched (its folder missing) is left out: the
 * next read sees it.
 */
export function watchBase(deps: BaseWatchDeps, onMove: () => void): Disposable {
  const race = deps.race();
  if (!race) return { dispose: () => undefined };
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const moved = () => {
    clearTimeout(timer);
    timer = setTimeout(() => !disposed && onMove(), BASE_MOVE_QUIET_MS);
    timer.unref?.();
  };
  const watches = new Map<string, { close(): void } | undefined>();
  const follow = (files: readonly string[]) => {
    const wanted = new Set(files);
    for (const [file, watch] of watches) {
      if (wanted.has(file)) continue;
      watch?.close();
      watches.delete(file);
    }
    for (const file of wanted) if (!watches.has(file)) watches.set(file, deps.heads.watch(file, moved));
  };
  let gitFiles: string[] = [];
  const touched = () => {
    const now = deps.race();
    const paths = now?.members.flatMap((m) => deps.figures.of(now, m)?.changes?.files.flatMap((f) => [f.path, ...(f.from ? [f.from] : [])]) ?? []) ?? [];
    follow([...gitFiles, ...paths.map((p) => join(race.repo, p))]);
  };
  void deps.gitFolders(race.repo).then((found) => {
    if (disposed || !found) return;
    gitFiles = baseFiles(found, race.base);
    touched();
  });
  const figures = deps.figures.onDidChange((raceId) => raceId === race.id && !disposed && touched());
  touched();
  return {
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      figures.dispose();
      follow([]);
    },
  };
}

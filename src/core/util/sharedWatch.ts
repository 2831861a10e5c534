/**
 * One watch per folder, shared by everyone who watches it. Every agent of a workspace follows its
 * transcript in the same project folder: fifty followers held fifty chokidar watches on it, and
 * each re-read the whole folder (an lstat per entry) on every write in it — 16 s of lstat in 50 s
 * at fifty agents (bench/fifty.ts). Shared, the folder is read once per event, whoever wrote.
 */
import { statSync } from "node:fs";
import type { FileWatch, WatchFactory } from "./watchTypes";

interface Subscriber {
  accept: (path: string) => boolean;
  onChange: (path: string) => void;
}

interface Shared {
  /** The folder it watches (device and inode; "" while missing): a folder made again is another watch. */
  identity: string;
  watch: FileWatch;
  subscribers: Set<Subscriber>;
  /**
   * The subscribers that accept a path, per path, while the subscribers stay the same (emptied when
   * one comes or goes): every event asked each of fifty followers' `accept` about its path, up to
   * three times over (the watch's own question, then each subscriber before telling it), about 3 % of
   * the host's CPU at fifty agents (perf). A few paths are written over and over (the transcripts).
   */
  acceptedBy: Map<string, Subscriber[]>;
}

/** Paths whose subscribers are remembered at most (then forgotten all at once and asked afresh). */
const ACCEPTED_PATHS_MAX = 4096;

function acceptersOf({ subscribers, acceptedBy }: Pick<Shared, "subscribers" | "acceptedBy">, path: string): Subscriber[] {
  let found = acceptedBy.get(path);
  if (found) return found;
  found = [];
  for (const s of subscribers) if (s.accept(path)) found.push(s);
  if (acceptedBy.size >= ACCEPTED_PATHS_MAX) acceptedBy.clear();
  acceptedBy.set(path, found);
  return found;
}

function identityOf(dir: string): string {
  try {
    const s = statSync(dir);
    return `${s.dev}:${s.ino}`;
  } catch {
    return "";
  }
}

/**
 * `factory`'s watches, one per folder: it admits what any subscriber accepts, and tells each path
 * to the subscribers that accept it. `accept` must answer by the path alone (the same path, the
 * same answer): it is asked once per path while the subscribers stay the same, and asked afresh
 * when one comes or goes (so a subscriber added later is heard from its next event on). Closed when its last subscriber closes. A folder deleted and made
 * again is a new watch for those who arm after it (a dead watch is dropped by its owners,
 * util/watchedFolder.ts, and must not be handed back to them): told by its device and inode, or,
 * as an inode may be reused at once, by an owner dropping the watch while its folder is gone.
 */
export function sharedPerFolder(factory: WatchFactory): WatchFactory {
  const byFolder = new Map<string, Shared>();
  return (root, accept, onChange) => {
    const identity = identityOf(root);
    let shared = byFolder.get(root);
    const joined = shared !== undefined && shared.identity === identity;
    if (!shared || !joined) {
      const subscribers = new Set<Subscriber>();
      const acceptedBy = new Map<string, Subscriber[]>();
      const both = { subscribers, acceptedBy };
      const watch = factory(
        root,
        (path) => acceptersOf(both, path).length > 0,
        (path) => {
          // A subscriber that closes while an earlier one is told is not told (the set is asked, as before).
          for (const s of acceptersOf(both, path)) if (subscribers.has(s)) s.onChange(path);
        },
      );
      shared = { identity, watch, subscribers, acceptedBy };
      byFolder.set(root, shared);
    }
    const mine = shared;
    const subscriber: Subscriber = { accept, onChange };
    mine.subscribers.add(subscriber);
    mine.acceptedBy.clear();
    // Joining a watch already in place: the folders it admits now (this subscriber's) are watched too.
    const ready = joined ? Promise.all([mine.watch.ready, mine.watch.rescan?.()]).then(() => undefined) : mine.watch.ready;
    let closed = false;
    return {
      ready,
      throttleMs: mine.watch.throttleMs,
      close: async () => {
        if (closed) return;
        closed = true;
        mine.subscribers.delete(subscriber);
        mine.acceptedBy.clear();
        // Dropped while its folder is gone or another (an owner drops a dead watch then): nobody gets it again,
        // even if the folder made again has the same inode.
        if (byFolder.get(root) === mine && identityOf(root) !== mine.identity) byFolder.delete(root);
        if (mine.subscribers.size > 0) return;
        if (byFolder.get(root) === mine) byFolder.delete(root);
        await mine.watch.close();
      },
    };
  };
}

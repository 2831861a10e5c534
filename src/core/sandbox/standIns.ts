/**
 * The places for the empty read-only folders that keep a sandboxed command from creating a
 * missing protected name (`.git`, `.claude`, `.vscode`, the folder core.hooksPath names) at a
 * writable root. A mount needs an existing place, and bubblewrap would make it on the host anyway
 * (the root is the host's folder), so it is made here, where what was made is known.
 *
 * One record for the whole extension host (every sandbox, every runner): a stand-in is removed
 * only after the last sandbox that bound it has exited. Removing it earlier is an escape, not a
 * tidy-up: the kernel lets the host remove a folder another mount namespace has a mount on, and
 * drops that mount with it, so a command still running would find the name writable (issue 31).
 * layoutFromDisk asks `isOurs` before it looks at the disk: a stand-in made for another command
 * is never taken for the user's own folder, it is held again.
 *
 * The removal happens after the command's end is told (an rmdir is a journalled write, a few
 * milliseconds on a busy disk: no reason for the agent to wait on it). Until it is done the
 * stand-in stays ours (`isOurs`), so no launch takes it for the user's folder, and a launch that
 * needs it again waits in `hold` for the removal to finish and makes it afresh: nothing is ever
 * bound that is about to be removed.
 */
import { mkdirSync } from "node:fs";
import { rmdir } from "node:fs/promises";
import { mountedElsewhere } from "./mountedElsewhere";

/** How often a stand-in another sandbox still has a mount on is looked at again. */
const RETRY_MS = 1000;

export class StandIns {
  /** Stand-in → how many sandboxes hold it (started, or about to start), for the ones made here. */
  private readonly held = new Map<string, number>();
  /** Stand-ins no command of ours holds, kept because another sandbox still has a mount on them. */
  private readonly waiting = new Set<string>();
  /** Stand-ins being removed now (still counted as ours, at 0), and when that is done. */
  private readonly removing = new Map<string, Promise<void>>();

  /** `inUse`: which of the paths another sandbox (another window's) has a mount on (mountedElsewhere.ts). */
  constructor(private readonly inUse: (paths: readonly string[]) => ReadonlySet<string> = mountedElsewhere) {}

  /** Whether `path` is a stand-in made here and still held (it then exists only because of us). */
  isOurs(path: string): boolean {
    return this.held.has(path);
  }

  /**
   * Holds each path, making the missing ones, once no removal of one of them is under way (a
   * stand-in let go of a moment ago is made again, never bound while it is being removed); call the
   * result once the sandbox has exited.
   */
  async hold(paths: readonly string[]): Promise<() => void> {
    for (let pending = this.removals(paths); pending.length > 0; pending = this.removals(paths)) await Promise.all(pending);
    // From here on synchronous: no release can start a removal of these paths before they are counted.
    const mine: string[] = [];
    for (const path of paths) {
      const count = this.held.get(path);
      if (count !== undefined) {
        this.held.set(path, count + 1);
        mine.push(path);
        continue;
      }
      try {
        // Synchronous, as the removal below: no other hold or release can run between the check and the count.
        mkdirSync(path, { mode: 0o755 });
      } catch {
        // There now (someone made it meanwhile): not ours to remove; the sandbox covers it all the same.
        continue;
      }
      this.held.set(path, 1);
      mine.push(path);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const last: string[] = [];
      for (const path of mine) {
        const count = (this.held.get(path) ?? 1) - 1;
        if (count > 0) this.held.set(path, count);
        else last.push(path);
      }
      if (last.length === 0) return;
      // Still ours (counted at 0) until removed: a launch meanwhile covers them and waits in hold.
      for (const path of last) this.held.set(path, 0);
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(async () => {
          const inUse = this.inUse(last);
          await Promise.all(last.map((path) => this.remove(path, inUse.has(path))));
        })
        .catch(() => undefined); // never: remove() and inUse() do not throw; a hold must not wait on a rejection
      for (const path of last) this.removing.set(path, done);
      void done.finally(() => {
        for (const path of last) if (this.removing.get(path) === done) this.removing.delete(path);
      });
    };
  }

  /** The removals under way of any of `paths`. */
  private removals(paths: readonly string[]): Promise<void>[] {
    return [...new Set(paths.flatMap((path) => this.removing.get(path) ?? []))];
  }

  /** Once every removal under way now has finished (tests and the bench look at the disk after it). */
  async settled(): Promise<void> {
    while (this.removing.size > 0) await Promise.all(this.removing.values());
  }

  /**
   * Removed when no running sandbox has a mount on it, another window's included (one that found
   * it and took it for the user's folder); else kept, counted as ours, and looked at again later.
   */
  private async remove(path: string, inUse: boolean): Promise<void> {
    if (inUse) {
      this.held.set(path, 0);
      if (!this.waiting.has(path)) {
        this.waiting.add(path);
        const timer = setInterval(() => {
          if (this.held.get(path) !== 0 || this.removing.has(path)) return this.stopWaiting(path, timer); // held again: its next release decides
          if (this.inUse([path]).has(path)) return;
          this.stopWaiting(path, timer);
          const done = this.remove(path, false);
          this.removing.set(path, done);
          void done.finally(() => this.removing.get(path) === done && this.removing.delete(path));
        }, RETRY_MS);
        timer.unref?.();
      }
      return;
    }
    // rmdir never removes what someone put inside meanwhile (from outside the sandbox).
    await rmdir(path).catch(() => undefined); // not empty, or gone already
    if (this.held.get(path) === 0) this.held.delete(path);
  }

  private stopWaiting(path: string, timer: ReturnType<typeof setInterval>): void {
    clearInterval(timer);
    this.waiting.delete(path);
  }

  /** How many stand-ins are held or kept now (for tests and the bench). */
  get size(): number {
    return this.held.size;
  }
}

/** The extension host's one record (see above: it must span every sandbox of the process). */
export const standIns = new StandIns();

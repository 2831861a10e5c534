/**
 * The places for the empty read-only folders that keep a command from creating `.git`, `.claude`
 * or `.vscode` at a writable root (layoutFromDisk.ts): a mount needs an existing place, and
 * bubblewrap would make it on the host anyway (the root is the host's folder). Made here, so
 * that what is made is known: each one is removed again after the last command that needed it,
 * only if it is still empty (rmdir never removes what someone put inside meanwhile).
 */
import { mkdir, rmdir } from "node:fs/promises";

export class StubFolders {
  /** Stub → how many running commands hold it, for the ones made here. */
  private readonly held = new Map<string, number>();

  /** Makes the missing ones; call the result once the command ended. */
  async hold(paths: readonly string[]): Promise<() => Promise<void>> {
    const mine: string[] = [];
    for (const path of paths) {
      const count = this.held.get(path);
      if (count !== undefined) {
        this.held.set(path, count + 1);
        mine.push(path);
        continue;
      }
      try {
        await mkdir(path, { mode: 0o755 });
        this.held.set(path, 1);
        mine.push(path);
      } catch {
        // There now (someone made it meanwhile): not ours to remove; the sandbox covers it all the same.
      }
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      for (const path of mine) {
        const count = (this.held.get(path) ?? 1) - 1;
        if (count > 0) {
          this.held.set(path, count);
          continue;
        }
        this.held.delete(path);
        await rmdir(path).catch(() => undefined);
      }
    };
  }
}

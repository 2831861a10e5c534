/**
 * realpath for a path that may not exist (yet): a file about to be written, an edit's target.
 */
import { readlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** More links than this on one path is a loop (Linux gives up at 40 too: ELOOP). */
const MAX_LINKS = 40;

/**
 * realpath, or for a missing path the realpath of its nearest existing parent + the rest.
 * A dangling symlink on the way (`link.txt -> ../outside/evil.txt`, target missing) is followed
 * to its target, not taken for a missing name: writing to the link writes the target, so the
 * target is where the path really points (and outside the workspace it needs the user's Allow).
 */
export async function realpathAllowingMissing(realpath: (path: string) => Promise<string>, path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  let links = 0;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch (err) {
      if ((err as { code?: string }).code !== "ENOENT" && (err as { code?: string }).code !== "ENOTDIR") throw err;
      const target = await danglingLinkTarget(current);
      if (target !== undefined) {
        if (++links > MAX_LINKS) throw Object.assign(new Error(`too many levels of symbolic links at ${current}`), { code: "ELOOP" });
        // A relative target is relative to the folder the link really sits in.
        current = resolve(await realpath(dirname(current)), target);
        continue;
      }
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Where a symlink at `path` points, or undefined when nothing (or no link) is there. Node's fs,
 * not the WorkspaceFiles port: both hosts' `realpath` is Node's already (the extension host runs
 * where the files are), and the port has no lstat/readlink.
 */
async function danglingLinkTarget(path: string): Promise<string | undefined> {
  try {
    return await readlink(path);
  } catch {
    // ENOENT: nothing there; EINVAL: a file or folder, not a link; ENOTDIR: a parent is a file.
    return undefined;
  }
}

/**
 * Reads and writes that touch exactly the file the tool checked (and the user reviewed), even if
 * a folder or file on the way is swapped for a symlink between the check and the use.
 *
 * The tools resolve a path once (paths.ts: real path, inside the workspace or approved) and use it
 * later — after an approval, after a diff review that can take minutes. A symlink swapped in
 * meanwhile would otherwise be followed: a write reviewed as `ws/new/report.md` landing outside,
 * a read returning another file's content. So at use time:
 * - the file's folder is opened as a handle and checked to be that very folder: on Linux the
 *   kernel's own name for the handle (`/proc/self/fd/N`) must equal the checked path, and for a
 *   write its identity (dev + inode) must be the one recorded when the diff was shown;
 * - the file is opened *through that handle* (`/proc/self/fd/N/name`, which the kernel resolves to
 *   the held folder itself, like openat) with O_NOFOLLOW: a link in its place is refused, never
 *   followed; missing folders of a new file are created the same way, one at a time.
 * Elsewhere (macOS, Windows: no /proc, and Node has no openat) the file is opened without
 * following a final link and the handle's identity (fstat) is compared with what the path holds
 * after it was opened, the path checked link-free before and after; a mismatch refuses the read or
 * the write. That catches every swap made between the check and the use (the review, the
 * approval), but a swap flipping back and forth within microseconds can still slip between two
 * consecutive calls, and a racing write can create an empty file where a swapped link pointed.
 *
 * Plain Node fs, used by both hosts' WorkspaceFiles: the VS Code extension host runs where the
 * files are (a workspace extension, local folders only), so Node's fs sees the same files as
 * `workspace.fs`, and only it offers file handles and open flags.
 */
import { existsSync } from "node:fs";
import { constants, type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { DirEntry, WriteTarget } from "./ports";

export type { WriteTarget };

/** Refused because the path changed since it was checked: the message says what changed. */
export class PathChangedError extends Error {
  readonly code = "EPATHCHANGED";
}

export function isPathChanged(err: unknown): err is PathChangedError {
  return err instanceof PathChangedError;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

let procFd: boolean | undefined;
/** Linux's /proc/self/fd: a handle's real name, and a path through the handle itself. */
function hasProcFd(): boolean {
  return (procFd ??= process.platform === "linux" && existsSync("/proc/self/fd"));
}

/** Tests only: run the portable way even where /proc is there. */
export function useProcFdForTests(value: boolean | undefined): void {
  procFd = value;
}

const samePath = (a: string, b: string) => (process.platform === "win32" || process.platform === "darwin" ? a.toLowerCase() === b.toLowerCase() : a === b);

/** Records where a write of `path` (a real path) must land; taken when the diff is shown. */
export async function writeTargetOf(path: string): Promise<WriteTarget> {
  const missing: string[] = [];
  let anchor = dirname(path);
  for (;;) {
    const s = await lstat(anchor, { bigint: true }).catch(() => undefined);
    if (s) {
      if (s.isSymbolicLink()) throw new PathChangedError(`${anchor} is a symbolic link now (it was not when the path was checked)`);
      if (!s.isDirectory()) throw new Error(`${anchor} is a file, not a folder`);
      return { path, anchor, anchorId: { dev: s.dev, ino: s.ino }, missing };
    }
    const parent = dirname(anchor);
    if (parent === anchor) throw new Error(`no folder of ${path} exists`);
    missing.unshift(basename(anchor));
    anchor = parent;
  }
}

/** The file's bytes, read only if `path` (a real path) still leads to it without any link. */
export async function readFileChecked(path: string): Promise<Uint8Array> {
  if (hasProcFd()) {
    const dir = await openFolderChecked(dirname(path));
    try {
      const file = await openIn(dir, dirname(path), basename(path), constants.O_RDONLY | O_NONBLOCK);
      try {
        return await file.readFile();
      } finally {
        await file.close();
      }
    } finally {
      await dir.close();
    }
  }
  const file = await openNoFollow(path, constants.O_RDONLY | O_NONBLOCK);
  try {
    await sameAsPath(file, path);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** The folder's entries (a link's type is its target's), read only if `path` (a real path) still is that folder. */
export async function readDirectoryChecked(path: string): Promise<DirEntry[]> {
  const list = async (at: string): Promise<DirEntry[]> =>
    Promise.all(
      (await readdir(at, { withFileTypes: true })).map(async (e): Promise<DirEntry> => {
        if (!e.isSymbolicLink()) return { name: e.name, type: e.isFile() ? "file" : e.isDirectory() ? "directory" : "other" };
        const t = await stat(join(at, e.name)).catch(() => undefined);
        return { name: e.name, type: t?.isDirectory() ? "directory" : t?.isFile() ? "file" : "other", symlink: true };
      }),
    );
  if (hasProcFd()) {
    const dir = await openFolderChecked(path);
    try {
      // Listed through the held folder itself: whatever its path leads to meanwhile.
      return await list(`/proc/self/fd/${dir.fd}`);
    } finally {
      await dir.close();
    }
  }
  const entries = await list(path);
  if (!samePath(await realpath(path), path)) throw new PathChangedError(`${path} leads elsewhere now (a folder on its way was replaced by a symbolic link)`);
  return entries;
}

/**
 * Writes `data` to exactly the reviewed file: in the folder that was there at review time (same
 * identity), through folders created now without following any link, the file itself never a link.
 */
export async function writeFileChecked(target: WriteTarget, data: Uint8Array): Promise<void> {
  const name = basename(target.path);
  if (hasProcFd()) {
    let dir = await openFolderChecked(target.anchor, target.anchorId);
    let where = target.anchor;
    try {
      for (const folder of target.missing) {
        await mkdir(`/proc/self/fd/${dir.fd}/${folder}`).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "EEXIST") throw err;
        });
        const next = await openIn(dir, where, folder, constants.O_RDONLY | O_DIRECTORY);
        await dir.close();
        dir = next;
        where = join(where, folder);
      }
      const file = await openIn(dir, where, name, constants.O_WRONLY | constants.O_CREAT);
      try {
        await file.truncate(0);
        await file.writeFile(data);
      } finally {
        await file.close();
      }
    } finally {
      await dir.close();
    }
    return;
  }
  // Portable: create the folders one at a time, none of them a link, then check the anchor is the reviewed one.
  let where = target.anchor;
  for (const folder of target.missing) {
    where = join(where, folder);
    await mkdir(where).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "EEXIST") throw err;
    });
    if (!(await lstat(where)).isDirectory()) throw new PathChangedError(`${where} is a symbolic link now (or a file), not the folder to create`);
  }
  const anchor = await stat(target.anchor, { bigint: true });
  if (anchor.dev !== target.anchorId.dev || anchor.ino !== target.anchorId.ino) throw replaced(target.anchor);
  const file = await openNoFollow(target.path, constants.O_WRONLY | constants.O_CREAT);
  try {
    await sameAsPath(file, target.path);
    await file.truncate(0);
    await file.writeFile(data);
  } finally {
    await file.close();
  }
}

function replaced(folder: string): PathChangedError {
  return new PathChangedError(`${folder} is no longer the folder that was there when the change was reviewed (it was replaced or moved)`);
}

/** Opens a folder and checks the handle is that folder, by its name now and (when given) its identity. */
async function openFolderChecked(path: string, identity?: WriteTarget["anchorId"]): Promise<FileHandle> {
  const dir = await open(path, constants.O_RDONLY | O_DIRECTORY).catch((err: NodeJS.ErrnoException) => {
    throw err.code === "ENOENT" || err.code === "ENOTDIR" ? new PathChangedError(`${path} is gone (moved or deleted since the path was checked)`) : err;
  });
  try {
    const actual = await readlink(`/proc/self/fd/${dir.fd}`);
    if (actual !== path) throw new PathChangedError(`${path} leads to ${actual} now (a folder on its way was replaced by a symbolic link)`);
    if (identity) {
      const s = await dir.stat({ bigint: true });
      if (s.dev !== identity.dev || s.ino !== identity.ino) throw replaced(path);
    }
    return dir;
  } catch (err) {
    await dir.close();
    throw err;
  }
}

/** `name` inside the held folder (`/proc/self/fd/N/name`: that folder, whatever its path does now), never through a link. */
async function openIn(dir: FileHandle, dirPath: string, name: string, flags: number): Promise<FileHandle> {
  return openNoFollow(`/proc/self/fd/${dir.fd}/${name}`, flags, join(dirPath, name));
}

async function openNoFollow(path: string, flags: number, shown = path): Promise<FileHandle> {
  try {
    return await open(path, flags | O_NOFOLLOW, 0o666);
  } catch (err) {
    // ELOOP: a link where O_NOFOLLOW forbids one; ENOTDIR (with O_DIRECTORY): a link or a file instead of the folder.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK" || (code === "ENOTDIR" && flags & O_DIRECTORY)) {
      throw new PathChangedError(`${shown} is a symbolic link now (it was not when the path was checked)`);
    }
    throw err;
  }
}

/** The opened handle must be what the path holds now, with no link on the way. */
async function sameAsPath(file: FileHandle, path: string): Promise<void> {
  const gone = (err: NodeJS.ErrnoException) => {
    throw err.code === "ENOENT" ? new PathChangedError(`${path} was moved or replaced while it was being opened`) : err;
  };
  const noLink = async () => {
    const real = await realpath(path).catch(gone);
    if (!samePath(real, path)) throw new PathChangedError(`${path} leads to ${real} now (a folder on its way was replaced by a symbolic link)`);
  };
  // No link on the path before and after the stat, and the stat is the held file: a swap would
  // have to flip twice within two consecutive calls to pass (a window, not none: see the top).
  const held = await file.stat({ bigint: true });
  await noLink();
  const there = await stat(path, { bigint: true }).catch(gone);
  await noLink();
  if (there.dev !== held.dev || there.ino !== held.ino) throw new PathChangedError(`${path} was replaced while it was being opened`);
}

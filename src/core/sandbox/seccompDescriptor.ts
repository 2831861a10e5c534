/**
 * The seccomp filter handed to bubblewrap as a file descriptor it can read to its end at once.
 * Through a pipe, bubblewrap waited for the extension host's next turn of its event loop to see the
 * pipe closed (milliseconds on a loaded machine, for every command). Here the filter is written to
 * a file of its own in /dev/shm (memory: no disk write), at offset 0 without moving the file's
 * position, and the file is unlinked at once: nothing can open it by name afterwards, and the only
 * descriptor left is the one the command's bubblewrap inherits (the caller closes its own after the
 * spawn). A sandboxed command sees a /dev of its own, never the host's /dev/shm. Undefined where
 * /dev/shm cannot be used: the caller falls back to a pipe.
 */
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";

const SHM = "/dev/shm";

export function seccompDescriptor(filter: Uint8Array, folder = SHM): number | undefined {
  const path = `${folder}/arcadia-seccomp-${process.pid}-${randomBytes(8).toString("hex")}`;
  let fd: number;
  try {
    // Exclusive: a name someone made first is never used.
    fd = openSync(path, "wx+", 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(path);
    // Positional write: the descriptor's position stays at 0, where bubblewrap starts reading.
    if (writeSync(fd, filter, 0, filter.length, 0) !== filter.length) throw new Error("short write");
    return fd;
  } catch {
    closeSync(fd);
    return undefined;
  }
}

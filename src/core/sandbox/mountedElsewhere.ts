/**
 * Whether a running sandbox — of this extension host or another (a second VS Code window, another
 * Arcadia) — has a mount on `path`: read from the kernel's own record, each bubblewrap process's
 * /proc/<pid>/mountinfo (readable for the user's own processes). A stand-in one of them bound must
 * not be removed yet: the kernel would drop that sandbox's mount with it (standIns.ts).
 * Synchronous: it runs between a count reaching zero and the rmdir, with nothing in between.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";

/** Which of `paths` a running sandbox has a mount on (one look at /proc for all of them). */
export function mountedElsewhere(paths: readonly string[], proc = "/proc"): Set<string> {
  const found = new Set<string>();
  if (paths.length === 0) return found;
  let pids: string[];
  try {
    pids = readdirSync(proc);
  } catch {
    return found; // no /proc: nothing to ask (not Linux, where there is no sandbox either)
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || !isBwrap(`${proc}/${pid}/comm`)) continue;
    for (const line of (read(`${proc}/${pid}/mountinfo`) ?? "").split("\n")) {
      const point = line.split(" ")[4];
      if (point === undefined) continue;
      const path = unescapeMountPoint(point);
      if (paths.includes(path)) found.add(path);
    }
  }
  return found;
}

/** The 15 characters of a process's name and a newline fit; read into one buffer (a few hundred processes, every time a stand-in is let go of). */
const COMM = Buffer.alloc(32);

/** Whether the process's name (its comm file) is bwrap: one open, one read, no allocation. */
function isBwrap(comm: string): boolean {
  let fd: number;
  try {
    fd = openSync(comm, "r");
  } catch {
    return false; // gone meanwhile
  }
  try {
    const n = readSync(fd, COMM, 0, COMM.length, 0);
    return n === 6 && COMM.toString("latin1", 0, 6) === "bwrap\n";
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // gone meanwhile, or another user's
  }
}

/** mountinfo writes a space, tab, newline and backslash as \040, \011, \012, \134. */
function unescapeMountPoint(point: string): string {
  return point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

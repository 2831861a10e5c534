// Kills a process and everything it started. code-server's terminals call setsid (node-pty), so
// killing its process group is not enough; its descendants are found through /proc's parent
// links. Anything that escaped by double-forking is swept when run-in-netns.sh's namespace ends.
import { readdirSync, readFileSync } from "node:fs";

/** pid → parent pid, for every process visible now. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Field 4 (ppid) comes after the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      map.set(Number(entry), ppid);
    } catch {
      // Exited meanwhile.
    }
  }
  return map;
}

/** `root` and all its descendants (as of now). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** SIGKILLs `root`'s process group and its whole tree. Synchronous, so it also works in an
 * `exit` handler. The tree is read before killing: once a parent dies its children are
 * re-parented and can no longer be told apart. */
export function killTree(root: number): void {
  const tree = processTree(root);
  try {
    process.kill(-root, "SIGKILL");
  } catch {
    // Not a group leader, or already gone.
  }
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * From a terminal's shell pid to its `claude` process. The CLI is usually the shell's child, but
 * may sit below a wrapper (`npx`, a script, `bash -c`), and may be a native binary (`claude`,
 * 2.1.x) or `node …/cli.js` (older releases, npm installs). A process with a believable status
 * file is Claude Code whatever its name; the name is only the fallback (a CLI version without
 * status files, or the first moments before the file is written).
 */
import { basename } from "node:path";
import { INTERPRETERS, type ProcessInfo } from "./processTable";

const CLAUDE_NAME = /^claude(\.exe)?$/i;
/** A JavaScript entry of Claude Code run by an interpreter: the package's cli.js, or the npm bin
 * link `…/bin/claude` that a shebang hands to node. */
const CLAUDE_SCRIPT = /(@anthropic-ai[\\/]claude-code[\\/][^\s]*\.[cm]?js|[\\/]claude(\.[cm]?js)?)(\s|$)/i;

export function looksLikeClaude(p: ProcessInfo): boolean {
  if (CLAUDE_NAME.test(p.name)) return true;
  const interpreter = INTERPRETERS.test(p.name) || INTERPRETERS.test(basename(p.commandLine?.split(" ")[0] ?? ""));
  return interpreter && p.commandLine !== undefined && CLAUDE_SCRIPT.test(p.commandLine);
}

export interface Descendant {
  process: ProcessInfo;
  /** 1 = a child of the shell. */
  depth: number;
}

/** The processes below `rootPid`, breadth first (shallowest first). */
export function descendantsOf(rootPid: number, processes: readonly ProcessInfo[], maxDepth = 8): Descendant[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of processes) {
    if (p.pid === p.ppid) continue; // pid 0 on some systems lists itself as its parent
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: Descendant[] = [];
  const seen = new Set<number>([rootPid]);
  let level = [rootPid];
  for (let depth = 1; depth <= maxDepth && level.length; depth++) {
    const next: number[] = [];
    for (const pid of level) {
      for (const child of children.get(pid) ?? []) {
        if (seen.has(child.pid)) continue;
        seen.add(child.pid);
        out.push({ process: child, depth });
        next.push(child.pid);
      }
    }
    level = next;
  }
  return out;
}

/**
 * The `claude` below a shell: the shallowest descendant with a believable status file (a nested
 * `claude -p` run by a tool is deeper), else the shallowest one that looks like Claude Code.
 * Ties go to the older process.
 */
export function findClaude(shellPid: number, processes: readonly ProcessInfo[], hasBelievableStatus: (p: ProcessInfo) => boolean): Descendant | undefined {
  const below = descendantsOf(shellPid, processes);
  return shallowest(below.filter((d) => hasBelievableStatus(d.process))) ?? shallowest(below.filter((d) => looksLikeClaude(d.process)));
}

function shallowest(list: Descendant[]): Descendant | undefined {
  let best: Descendant | undefined;
  for (const d of list) {
    if (!best || d.depth < best.depth || (d.depth === best.depth && olderThan(d.process, best.process))) best = d;
  }
  return best;
}

function olderThan(a: ProcessInfo, b: ProcessInfo): boolean {
  // Linux start times are tick counts; elsewhere the pid is the only cheap hint.
  if (a.startTime !== undefined && b.startTime !== undefined && /^\d+$/.test(a.startTime) && /^\d+$/.test(b.startTime)) {
    return BigInt(a.startTime) < BigInt(b.startTime);
  }
  return a.pid < b.pid;
}

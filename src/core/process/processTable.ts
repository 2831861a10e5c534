/**
 * The process table, as much of it as binding terminals to `claude` needs: pid, parent, start
 * time (in the CLI's own `procStart` form, see startTime.ts) and the executable's name.
 *
 * Linux reads /proc. Where the kernel offers `/proc/<pid>/task/<tid>/children` it walks only the
 * trees below the given roots (a few reads per terminal instead of one per process on the
 * machine: the monitor polls every second); elsewhere it scans every pid. macOS runs one `ps`,
 * Windows one PowerShell `Get-CimInstance Win32_Process` (both list everything).
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { afterComm, linuxStatStartTime } from "./startTime";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Comparable with a status file's `procStart` through `sameStartTime`; undefined if unknown. */
  startTime?: string;
  /** The executable's name: Linux `comm` (≤ 15 chars), elsewhere the basename of argv[0]. */
  name: string;
  /** The full command line, when known (Linux reads it only where the name is not enough). */
  commandLine?: string;
}

export interface ListOptions {
  /** Whether to look below this process (default: yes). Implementations that list everything
   * may ignore it; it only saves work. */
  descend?: (p: ProcessInfo) => boolean;
}

export interface ProcessTable {
  /** The processes in the trees below `roots`, roots included (while alive). May return more
   * (the whole table) where walking one tree is not cheaper. Rejects when the table could not be
   * read (no /proc, `ps` or PowerShell failing or timing out, an empty listing): a failed listing
   * must not pass for "every process is gone" (that would report every agent's claude as exited). */
  list(roots: readonly number[], opts?: ListOptions): Promise<ProcessInfo[]>;
}

/** Names whose command line must be read to tell whether they run Claude Code. */
export const INTERPRETERS = /^(node|nodejs|bun|deno)(\.exe)?$/i;
/** How deep below a root the walk goes: shell → wrapper → wrapper → claude fits easily. */
const MAX_DEPTH = 6;
/** Bound on one walk, against a runaway tree (a fork bomb in a terminal). */
const MAX_VISITED = 500;

export function systemProcessTable(platform: NodeJS.Platform = process.platform): ProcessTable {
  if (platform === "linux") return linuxProcessTable();
  return { list: () => listProcesses(platform) };
}

/** Every process on the machine. Rejects when they cannot be listed (see ProcessTable.list). */
export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<ProcessInfo[]> {
  const all =
    platform === "linux"
      ? scanProc()
      : platform === "win32"
        ? parseWindowsOutput(await run("powershell.exe", ["-NoProfile", "-NonInteractive", "-Command", WINDOWS_SCRIPT]))
        : parsePsOutput(await run("ps", ["-axo", "pid=,ppid=,lstart=,command="], { LC_ALL: "C", TZ: "UTC" }));
  // There is always at least this process: nothing listed means the output was not read.
  if (all.length === 0) throw new Error(`the process listing (${platform}) came back empty`);
  return all;
}

// ---------------------------------------------------------------------------------------------
// Linux

function linuxProcessTable(): ProcessTable {
  let canWalk: boolean | undefined;
  return {
    async list(roots, opts = {}) {
      // A root that cannot be read is a process that is gone, unless /proc cannot be read at all.
      if (readProcFile(`/proc/${process.pid}/stat`) === undefined) throw new Error("cannot read /proc");
      canWalk ??= readProcFile(`/proc/${process.pid}/task/${process.pid}/children`) !== undefined;
      return canWalk ? walkProc(roots, opts.descend ?? (() => true)) : scanProc();
    },
  };
}

// /proc files are generated from kernel memory on read: synchronous reads take microseconds and
// cost a fraction of async ones (thread pool + promise per file), which mattered at one poll a
// second (measured: 10 terminals, async ~1.7 % of a core, sync ~0.3 %).
function readProcFile(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return undefined;
  }
}

/** One `/proc/<pid>/stat` line → a process (without its command line). */
export function parseLinuxStat(stat: string): ProcessInfo | undefined {
  const pid = Number.parseInt(stat, 10);
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  const fields = afterComm(stat);
  const ppid = Number(fields?.[1]);
  if (!Number.isInteger(pid) || open < 0 || close < open || !Number.isInteger(ppid)) return undefined;
  const info: ProcessInfo = { pid, ppid, name: stat.slice(open + 1, close) };
  const start = linuxStatStartTime(stat);
  if (start !== undefined) info.startTime = start;
  return info;
}

function readProc(pid: number): ProcessInfo | undefined {
  const stat = readProcFile(`/proc/${pid}/stat`);
  const info = stat === undefined ? undefined : parseLinuxStat(stat);
  // Only an interpreter's command line says whether it runs Claude Code.
  if (!info || !INTERPRETERS.test(info.name)) return info;
  const cmdline = readProcFile(`/proc/${pid}/cmdline`);
  // Arguments are NUL-separated (and NUL-terminated).
  if (cmdline) info.commandLine = Buffer.from(cmdline, "latin1").toString("utf8").replace(/\0+$/, "").split("\0").join(" ");
  return info;
}

/** Throws when /proc cannot be listed. */
function scanProc(): ProcessInfo[] {
  const entries = readdirSync("/proc");
  return entries.filter((e) => /^\d+$/.test(e)).flatMap((e) => readProc(Number(e)) ?? []);
}

function childrenOf(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((tid) => (readProcFile(`/proc/${pid}/task/${tid}/children`) ?? "").split(" ").filter(Boolean).map(Number));
}

function walkProc(roots: readonly number[], descend: (p: ProcessInfo) => boolean): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const seen = new Set<number>();
  let level = [...new Set(roots)];
  for (let depth = 0; depth <= MAX_DEPTH && level.length && seen.size < MAX_VISITED; depth++) {
    for (const pid of level) seen.add(pid);
    const infos = level.flatMap((pid) => readProc(pid) ?? []);
    out.push(...infos);
    const below = depth < MAX_DEPTH ? infos.filter(descend).flatMap((p) => childrenOf(p.pid)) : [];
    level = [...new Set(below)].filter((pid) => !seen.has(pid)).slice(0, MAX_VISITED - seen.size);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// macOS (and other ps-based systems)

// `lstart` in the C locale: "Sun Nov  2 07:45:21 2026" (day padded with a space).
const PS_LINE = /^\s*(\d+)\s+(\d+)\s+([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\s+(.*)$/;

/** Output of `LC_ALL=C TZ=UTC ps -axo pid=,ppid=,lstart=,command=`. */
export function parsePsOutput(text: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const line of text.split("\n")) {
    const m = PS_LINE.exec(line);
    if (!m) continue;
    const commandLine = (m[4] ?? "").trim();
    out.push({ pid: Number(m[1]), ppid: Number(m[2]), startTime: m[3], name: basename(commandLine.split(" ")[0] ?? ""), commandLine });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Windows

// One line per process: pid, parent, creation time as FILETIME (UTC), name, command line.
const WINDOWS_SCRIPT = [
  "Get-CimInstance Win32_Process | ForEach-Object {",
  "$ft = if ($_.CreationDate) { $_.CreationDate.ToFileTimeUtc() } else { '' };",
  '[string]$_.ProcessId + "`t" + [string]$_.ParentProcessId + "`t" + $ft + "`t" + $_.Name + "`t" + ($_.CommandLine -replace \'[\\r\\n\\t]\', \' \')',
  "}",
].join(" ");

/** Output of WINDOWS_SCRIPT. */
export function parseWindowsOutput(text: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [pid, ppid, ft, name, commandLine] = line.split("\t");
    if (!pid || !/^\d+$/.test(pid) || !ppid || !/^\d+$/.test(ppid)) continue;
    const info: ProcessInfo = { pid: Number(pid), ppid: Number(ppid), name: name ?? "" };
    if (ft && /^\d+$/.test(ft)) info.startTime = ft;
    if (commandLine) info.commandLine = commandLine;
    out.push(info);
  }
  return out;
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout: 10_000, maxBuffer: 32 * 1024 * 1024, windowsHide: true }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

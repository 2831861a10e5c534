/**
 * Process start times in the form the CLI writes as `procStart`, and their comparison. A status
 * file is believed only while its pid is alive AND started when the file says: a pid can be
 * reused, and a SIGKILLed CLI leaves its file behind.
 *
 * The CLI (2.1.330, read from its bundle and checked on Linux):
 * - Linux: field 22 of `/proc/<pid>/stat` (`starttime`, clock ticks since boot), as a decimal string.
 * - macOS: `LC_ALL=C TZ=UTC ps -o lstart= -p <pid>`, trimmed, e.g. "Sun Nov  2 07:45:21 2026".
 * - Windows: `procStartFt` (a FILETIME, by its name; not checked here).
 */

/** The start time field of a `/proc/<pid>/stat` line. The command name (field 2) may hold spaces
 * and parentheses, so fields are counted from the last ")". */
export function linuxStatStartTime(stat: string): string | undefined {
  const fields = afterComm(stat);
  const start = fields?.[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** `pid (comm) state ppid … starttime …` → the fields after the command name. */
export function afterComm(stat: string): string[] | undefined {
  const close = stat.lastIndexOf(")");
  if (close < 0) return undefined;
  return stat
    .slice(close + 2)
    .trim()
    .split(" ");
}

/** FILETIME is 100 ns ticks since 1601; a different unit (e.g. ns since 1970) is far larger. */
const WINDOWS_TOLERANCE_MS = 1000;

/**
 * Whether a process's start time (from the process table) is the one a status file recorded.
 * Unknown on either side counts as a match: then only "the pid is alive" can be checked.
 */
export function sameStartTime(fromTable: string | undefined, fromFile: string | undefined, platform: NodeJS.Platform = process.platform): boolean {
  if (fromTable === undefined || fromFile === undefined) return true;
  const a = fromTable.trim().replace(/\s+/g, " ");
  const b = fromFile.trim().replace(/\s+/g, " ");
  if (a === b) return true;
  if (platform === "win32") {
    // WMI's CreationDate has microseconds, a FILETIME has 100 ns: equal only within a tolerance.
    const ta = fileTimeToMs(a);
    const tb = fileTimeToMs(b);
    return ta !== undefined && tb !== undefined && Math.abs(ta - tb) < WINDOWS_TOLERANCE_MS;
  }
  return false;
}

const FILETIME_EPOCH_OFFSET_MS = 11_644_473_600_000;

function fileTimeToMs(fileTime: string): number | undefined {
  if (!/^\d+$/.test(fileTime)) return undefined;
  return Number(BigInt(fileTime) / 10_000n) - FILETIME_EPOCH_OFFSET_MS;
}

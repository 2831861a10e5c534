/**
 * Folders the look after an unasked command cannot read (leftBehind.ts). An extension host that
 * is not root cannot list a folder its user took the read or search permission from, and a
 * command runs as that user: `mkdir -p sub/.git …; chmod 000 sub` hid a planted repository from
 * the look, which then passed the command (issue 31). Root reads every folder, whatever its mode.
 *
 * - A folder the command made (born, by the kernel's birth time, after its launch; the birth time
 *   cannot be set by any process) and owned by this user is opened again (u+rwx: the user's own
 *   new folder, now listable and removable) and looked into like any other.
 * - Any other unreadable folder is reported as not checked, unless the command could not have
 *   entered it at all: one this user may not search (no way in without a change of its mode) that
 *   is another user's (the command cannot chmod it) or was so at the launch already, its change
 *   time unmoved since (any chmod sets it to now; believed only when that time was older than the
 *   launch by more than the filesystem's timestamp granularity, as folderWalks.ts does).
 * Decisions look at the disk now. Nothing of the command runs meanwhile: bubblewrap's pid
 * namespace ended with it.
 */
import { accessSync, type BigIntStats, chmodSync, constants, lstatSync } from "node:fs";

/** The moment a launch starts, as the kernel's times are kept (ns since the epoch), rounded up: a folder born before never counts as the command's. */
export function launchMoment(): bigint {
  return (BigInt(Date.now()) + 1n) * 1_000_000n;
}

function hostUid(): number | undefined {
  return process.getuid?.();
}

/**
 * For nestedRepositories' `open`: reopens an unreadable folder when the command made it (born at
 * or after `since`, a folder, not a link, this user's); true when it did. A filesystem that keeps
 * no birth time gives 0: never reopened (then reported as not checked).
 */
export function reopenMadeSince(since: bigint, uid = hostUid()): (folder: string) => boolean {
  return (folder) => {
    const s = lstatOrUndefined(folder);
    if (s === undefined || !s.isDirectory() || uid === undefined || Number(s.uid) !== uid) return false;
    if (s.birthtimeNs === 0n || s.birthtimeNs < since) return false;
    try {
      chmodSync(folder, (Number(s.mode) & 0o7777) | 0o700);
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * Whether the command could have put something inside `folder`. Yes when this user may search it
 * (names inside reachable with no change at all). Else only by changing its mode first, which it
 * cannot do to another user's folder, nor to its own without moving its change time: no for
 * another user's, and for one unreadable at the launch already (`stamp`) and unchanged since.
 */
export function commandCouldEnter(folder: string, stamp: string | undefined, since: bigint | undefined, uid = hostUid()): boolean {
  const s = lstatOrUndefined(folder);
  if (s === undefined || uid === undefined || maySearch(folder)) return true;
  if (Number(s.uid) !== uid) return false;
  return !untouchedSince(folder, stamp, since);
}

function maySearch(folder: string): boolean {
  try {
    accessSync(folder, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An unreadable folder's identity and change time at the launch, to tell afterwards whether anything changed its mode. */
export function unreadableStamp(folder: string): string | undefined {
  const s = lstatOrUndefined(folder);
  return s === undefined ? undefined : `${s.dev}:${s.ino}:${s.ctimeNs}`;
}

/** Whether `folder` is as it was at the launch (`stamp`, settled before `since`): its mode never changed since. */
function untouchedSince(folder: string, stamp: string | undefined, since: bigint | undefined): boolean {
  if (stamp === undefined || since === undefined || unreadableStamp(folder) !== stamp) return false;
  const ctime = BigInt(stamp.split(":")[2] as string);
  // Whole seconds (a coarse filesystem): 2.1 s; else the kernel's clock tick, with a wide margin.
  const granularity = ctime % 1_000_000_000n === 0n ? 2_100_000_000n : 100_000_000n;
  return ctime < since - granularity;
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Whether a folder may have new entries since it was last listed, and whether a file's times are
 * too recent to trust. File systems stamp mtimes from a coarse kernel clock, so two writes within
 * one tick leave the same mtime: an mtime still that recent is not trusted (the folder is listed
 * again, the file read again).
 */
const TRUST_AFTER_MS = 2000;
/**
 * A file system that stamps times finer than a millisecond (ext4, btrfs, xfs, tmpfs, APFS, NTFS)
 * takes them from a clock that ticks every few ms (a jiffy: 1–10 ms; Windows: 15.6 ms). Whole-second
 * stamps (FAT: 2 s, HFS+, ext3, some network shares) keep TRUST_AFTER_MS. Why it matters: at fifty
 * working agents each agent's transcript is written every second or two, so with 2 s every safety
 * look at an unchanged file opened it and re-read its last 4 KB (half the host's file work).
 */
const FINE_TRUST_AFTER_MS = 100;
const NS_PER_MS = 1_000_000n;

export function mtimeSaysChanged(mtimeMs: number, lastListedMtimeMs: number, nowMs = Date.now()): boolean {
  return mtimeMs !== lastListedMtimeMs || nowMs - mtimeMs < TRUST_AFTER_MS;
}

/**
 * Whether a file whose stat is the same as at its last read may still have been rewritten since:
 * its mtime lies within its file system's clock tick of now. Sub-millisecond digits in the stamp
 * show a fine clock (a stamp that falls on a whole millisecond by chance is only trusted later).
 */
export function mtimeTooRecent(mtimeNs: bigint, nowMs = Date.now()): boolean {
  const fine = mtimeNs % NS_PER_MS !== 0n;
  return nowMs - Number(mtimeNs / NS_PER_MS) < (fine ? FINE_TRUST_AFTER_MS : TRUST_AFTER_MS);
}

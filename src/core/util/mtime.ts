/**
 * Whether a folder may have new entries since it was last listed. File systems stamp mtimes from
 * a coarse kernel clock (a few ms on Linux), so two entries created within one tick leave the same
 * mtime: an mtime still that recent is not trusted, and the folder is listed again.
 */
const TRUST_AFTER_MS = 2000;

export function mtimeSaysChanged(mtimeMs: number, lastListedMtimeMs: number, nowMs = Date.now()): boolean {
  return mtimeMs !== lastListedMtimeMs || nowMs - mtimeMs < TRUST_AFTER_MS;
}

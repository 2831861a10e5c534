/**
 * When the reader may skip a file without reading it: only when nothing about it changed and its
 * times are old enough to trust (a rewrite in the same clock tick as the last read leaves them as
 * they were). File stats are made up here: the real-file cases are in lineReader.test.ts.
 */
import { describe, expect, it } from "vitest";
import { FileFingerprint, type FileStat } from "../../src/core/transcript/fileFingerprint";

const NS_PER_MS = 1_000_000n;

function statAt(mtimeMs: number, over: Partial<FileStat> = {}): FileStat {
  const ns = BigInt(mtimeMs) * NS_PER_MS;
  return { dev: 1n, ino: 7n, size: 100n, mtimeMs: BigInt(mtimeMs), mtimeNs: ns, ctimeNs: ns, birthtimeNs: ns - 5000n * NS_PER_MS, ...over };
}

describe("FileFingerprint.unchanged", () => {
  it("skips a file whose size, times and identity are those of the last read, written long ago", () => {
    const fp = new FileFingerprint();
    const old = statAt(Date.now() - 60_000);
    fp.remember(old);
    expect(fp.unchanged(old, 100)).toBe(true);
  });

  it("checks a file written moments ago even when its stat is the same: the clock tick may hide a rewrite", () => {
    const fp = new FileFingerprint();
    const recent = statAt(Date.now() - 5);
    fp.remember(recent);
    expect(fp.unchanged(recent, 100)).toBe(false);
  });

  it("checks a file whose times moved though its size did not (rewritten in place)", () => {
    const fp = new FileFingerprint();
    const then = Date.now() - 60_000;
    fp.remember(statAt(then));
    expect(fp.unchanged(statAt(then, { mtimeNs: BigInt(then) * NS_PER_MS + 1n }), 100)).toBe(false);
  });

  it("reads a file that has bytes past the position, and one that is another file now", () => {
    const fp = new FileFingerprint();
    const then = Date.now() - 60_000;
    fp.remember(statAt(then));
    expect(fp.unchanged(statAt(then, { size: 150n }), 100)).toBe(false);
    expect(fp.unchanged(statAt(then, { ino: 8n }), 100)).toBe(false);
  });

  it("skips a file stamped finer than a millisecond once its mtime is a tenth of a second old: the clock tick is a few ms", () => {
    const fp = new FileFingerprint();
    // ext4, APFS, NTFS: a stamp with sub-millisecond digits.
    const fine = statAt(Date.now() - 500, { mtimeNs: BigInt(Date.now() - 500) * NS_PER_MS + 123_456n });
    fp.remember(fine);
    expect(fp.unchanged(fine, 100)).toBe(true);
    const justNow = statAt(Date.now() - 20, { mtimeNs: BigInt(Date.now() - 20) * NS_PER_MS + 123_456n });
    fp.remember(justNow);
    expect(fp.unchanged(justNow, 100)).toBe(false);
  });

  it("still checks a file stamped in whole seconds (FAT, HFS+, some shares) until its mtime is two seconds old", () => {
    const fp = new FileFingerprint();
    const second = BigInt(Math.floor((Date.now() - 500) / 1000)) * 1000n;
    const coarse = statAt(Number(second), { mtimeNs: second * NS_PER_MS });
    fp.remember(coarse);
    expect(fp.unchanged(coarse, 100)).toBe(false);
  });
});

import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineReader } from "../../src/core/transcript/lineReader";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

async function readAll(reader: LineReader): Promise<string[]> {
  const lines: string[] = [];
  for (;;) {
    const result = await reader.read();
    lines.push(...result.lines.map(String));
    if (!result.more) return lines;
  }
}

/**
 * Whether files here get a birth time of their own (then a replacement can be told by it alone):
 * 0 where the file system keeps none, the change time where Node falls back to plain stat().
 */
function birthTimesKept(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "arcadia-birth-"));
  try {
    const probe = join(dir, "probe");
    writeFileSync(probe, "");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 15); // past a coarse clock tick
    appendFileSync(probe, "x");
    const { birthtimeNs, ctimeNs } = statSync(probe, { bigint: true });
    return birthtimeNs > 0n && birthtimeNs !== ctimeNs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("LineReader", () => {
  it("returns only complete lines and keeps a partial line until its newline arrives", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, '{"a":1}\n{"b":');
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(['{"a":1}']);
    appendFileSync(file, "2}\n");
    expect(await readAll(reader)).toEqual(['{"b":2}']);
    expect(await readAll(reader)).toEqual([]);
  });

  it("never splits a UTF-8 character that straddles two reads", async () => {
    const file = join(tempDir(), "t.jsonl");
    const line = JSON.stringify({ text: "héllo wörld ✓ 🎉" });
    writeFileSync(file, `${line}\n`);
    // 3 bytes per read forces every multi-byte character to be cut somewhere.
    const reader = new LineReader(file, { maxBytesPerRead: 3 });
    expect(await readAll(reader)).toEqual([line]);
  });

  it("gives every line whole and in order whatever the read size, many lines per read or one line over many", async () => {
    const file = join(tempDir(), "t.jsonl");
    const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify({ n: i, pad: "é✓".repeat((i * 7) % 23) }));
    writeFileSync(file, `${lines.join("\n")}\n`);
    for (const size of [1, 2, 5, 17, 64, 333, 4096]) {
      const reader = new LineReader(file, { maxBytesPerRead: size });
      expect(await readAll(reader), `reads of ${size} bytes`).toEqual(lines);
    }
  });

  it("with a scratch buffer shared by two readers, reading one then the other, still gives every line whole", async () => {
    const lines = (tag: string) => Array.from({ length: 80 }, (_, i) => JSON.stringify({ tag, n: i, pad: "é✓".repeat((i * 5) % 31) }));
    const [fileA, fileB] = [join(tempDir(), "a.jsonl"), join(tempDir(), "b.jsonl")];
    writeFileSync(fileA, `${lines("a").join("\n")}\n`);
    writeFileSync(fileB, `${lines("b").join("\n")}\n`);
    for (const size of [7, 100, 333]) {
      // Room for a read and the bytes before it that are checked again (a line carried over from
      // one read to the next must not be a view of bytes the next read overwrites).
      const scratch = Buffer.alloc(size + 4096);
      const readers = [new LineReader(fileA, { maxBytesPerRead: size, scratch }), new LineReader(fileB, { maxBytesPerRead: size, scratch })];
      const got: string[][] = [[], []];
      for (let more = true; more;) {
        more = false;
        for (const [i, reader] of readers.entries()) {
          const result = await reader.read();
          got[i]!.push(...result.lines.map(String)); // decoded before the other reader reads
          more ||= result.more;
        }
      }
      expect(got, `reads of ${size} bytes`).toEqual([lines("a"), lines("b")]);
    }
  });

  it("reads at most the cap per call and says there is more", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "x".repeat(10) + "\n" + "y".repeat(10) + "\n");
    const reader = new LineReader(file, { maxBytesPerRead: 11 });
    const first = await reader.read();
    expect(first.lines.map(String)).toEqual(["x".repeat(10)]);
    expect(first.more).toBe(true);
    const second = await reader.read();
    expect(second.lines.map(String)).toEqual(["y".repeat(10)]);
    expect(second.more).toBe(false);
  });

  it("waits for a file that does not exist yet", async () => {
    const file = join(tempDir(), "later.jsonl");
    const reader = new LineReader(file);
    expect(await reader.read()).toMatchObject({ lines: [], missing: true, reset: false });
    writeFileSync(file, "1\n");
    expect(await readAll(reader)).toEqual(["1"]);
  });

  it("restarts cleanly when the file shrinks", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "old line one\nold line two\n");
    const reader = new LineReader(file);
    await readAll(reader);
    truncateSync(file, 0);
    appendFileSync(file, "new\n");
    const result = await reader.read();
    expect(result.reset).toBe(true);
    expect(result.lines.map(String)).toEqual(["new"]);
  });

  it("restarts cleanly when the file is replaced by another one", async () => {
    const dir = tempDir();
    const file = join(dir, "t.jsonl");
    writeFileSync(file, "first\n");
    const reader = new LineReader(file);
    await readAll(reader);
    const replacement = join(dir, "other.jsonl");
    writeFileSync(replacement, "replaced one\nreplaced two\n");
    renameSync(replacement, file);
    const result = await reader.read();
    expect(result.reset).toBe(true);
    expect(result.lines.map(String)).toEqual(["replaced one", "replaced two"]);
  });

  it("reports a deleted file as missing and reset", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "a\n");
    const reader = new LineReader(file);
    await readAll(reader);
    rmSync(file);
    expect(await reader.read()).toMatchObject({ missing: true, reset: true });
  });

  it("starts over when the file is rewritten in place with different bytes of the same size", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "old\n");
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(["old"]);
    writeFileSync(file, "new\n"); // O_TRUNC + write: same inode, same size
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(["new"]);
  });

  it("starts over when the file is rewritten in place with longer content", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "a1\n");
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(["a1"]);
    writeFileSync(file, "b1\nb2\n"); // longer than what was read: size alone cannot tell
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(["b1", "b2"]);
  });

  it("starts over when the file is deleted and created again with longer content (the inode may come back)", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "a1\n");
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(["a1"]);
    const inode = statSync(file).ino;
    unlinkSync(file);
    writeFileSync(file, "b1\nb2\n");
    // On ext4 the new file usually gets the old inode number back: that is the case worth showing.
    console.log(`lineReader: unlink + create ${statSync(file).ino === inode ? "reused" : "did not reuse"} the inode`);
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(["b1", "b2"]);
  });

  it("never glues a pending half line to a rewritten file's bytes", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, '{"a":');
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual([]);
    writeFileSync(file, '{"b":2}\n');
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(['{"b":2}']);
  });

  it("starts over when only the start of the file differs (the bytes just read are the same)", async () => {
    const file = join(tempDir(), "t.jsonl");
    // Far more filler than the reader keeps of what it read last: only the first line tells.
    const filler = `${"f".repeat(99)}\n`.repeat(200);
    writeFileSync(file, `first\n${filler}`);
    const reader = new LineReader(file);
    expect((await readAll(reader))[0]).toBe("first");
    writeFileSync(file, `other\n${filler}more\n`);
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)[0]).toBe("other");
  });

  it("after starting mid-file, still sees a same-size rewrite", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "aaaa\nbbbb\n");
    const reader = new LineReader(file);
    await reader.seekToLineAfter(5);
    expect(await readAll(reader)).toEqual(["bbbb"]);
    writeFileSync(file, "cccc\ndddd\n");
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(["cccc", "dddd"]);
  });

  // Where the file system keeps birth times (ext4, btrfs, xfs, APFS, NTFS), a replaced file is known
  // as such even when it begins with exactly the bytes already read.
  it.runIf(birthTimesKept())("starts over when the file is replaced by one that begins with the same bytes", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "same\n");
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(["same"]);
    await new Promise((r) => setTimeout(r, 20)); // a different birth time, even on a coarse clock
    unlinkSync(file);
    writeFileSync(file, "same\nnext\n");
    const result = await reader.read();
    expect(result).toMatchObject({ reset: true });
    expect(result.lines.map(String)).toEqual(["same", "next"]);
  });

  it("goes on from where it was when the file only grew", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "one\n");
    const reader = new LineReader(file);
    expect(await readAll(reader)).toEqual(["one"]);
    appendFileSync(file, "two\n");
    expect(await reader.read()).toMatchObject({ reset: false, lines: [Buffer.from("two")] });
    expect(await reader.read()).toMatchObject({ reset: false, lines: [] });
  });

  it("drops a line larger than the line cap and goes on with the next one", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, `small\n${"z".repeat(5000)}\nafter\n`);
    const reader = new LineReader(file, { maxBytesPerRead: 1000, maxLineBytes: 2000 });
    expect(await readAll(reader)).toEqual(["small", "after"]);
    expect(reader.oversizedLines).toBe(1);
  });

  it("starts at the first whole line after an arbitrary offset", async () => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, "aaaa\nbbbb\ncccc\n");
    const mid = new LineReader(file);
    await mid.seekToLineAfter(7); // inside "bbbb"
    expect(await readAll(mid)).toEqual(["cccc"]);
    const exact = new LineReader(file);
    await exact.seekToLineAfter(5); // exactly at "bbbb"
    expect(await readAll(exact)).toEqual(["bbbb", "cccc"]);
  });
});

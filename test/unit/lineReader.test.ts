import { appendFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
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

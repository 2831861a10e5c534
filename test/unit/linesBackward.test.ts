/** Reading a file's lines from its end back: every complete line once, whatever the chunk size. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type LineBlock, linesBackward } from "../../src/core/engine/linesBackward";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

async function blocks(content: string, chunkBytes: number, maxLineBytes?: number, firstChunkBytes?: number): Promise<LineBlock[]> {
  const file = join(tempDir(), "lines.jsonl");
  writeFileSync(file, content);
  const out: LineBlock[] = [];
  // Copied: a block is a view of a buffer reused for the next one.
  for await (const block of linesBackward(file, { chunkBytes, maxLineBytes, firstChunkBytes }))
    out.push({ bytes: Buffer.from(block.bytes), offset: block.offset });
  return out;
}

describe("linesBackward", () => {
  const lines = ["a", "bb", "", "ccccccccccccccc", "é€😀 multi-byte", "d"];
  const content = lines.map((l) => `${l}\n`).join("");

  it.each([1, 2, 3, 5, 8, 13, 100])("chunks of %i bytes give back the file's lines, newest block first, at their offsets", async (chunk) => {
    const got = await blocks(content, chunk);
    for (const block of got) expect(Buffer.from(content).subarray(block.offset, block.offset + block.bytes.length)).toEqual(block.bytes);
    expect(Buffer.concat(got.reverse().map((b) => b.bytes)).toString("utf8")).toBe(content);
  });

  it("chunks growing from 1 byte to 16 give back the same lines", async () => {
    const got = await blocks(content, 16, undefined, 1);
    expect(Buffer.concat(got.reverse().map((b) => b.bytes)).toString("utf8")).toBe(content);
  });

  it("leaves out a last line still being written", async () => {
    const got = await blocks(`${content}{"half":`, 4);
    expect(Buffer.concat(got.reverse().map((b) => b.bytes)).toString("utf8")).toBe(content);
  });

  it("leaves out a line longer than the cap, and keeps those around it", async () => {
    const got = await blocks(`one\n${"x".repeat(50)}\ntwo\n`, 8, 20);
    expect(Buffer.concat(got.reverse().map((b) => b.bytes)).toString("utf8")).toBe("one\ntwo\n");
  });
});

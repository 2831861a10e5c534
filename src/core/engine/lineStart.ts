/**
 * Where a line starts near a byte offset, read in small steps (never the whole file): the first
 * line that starts at or after `offset`, or, when the file holds no newline from there to its end
 * (one long line still being written), the start of the line that runs across `offset`. A restore
 * that reads a file's tail from there, and hands what lies before it on, cuts no line in two.
 */
import { open } from "node:fs/promises";

const STEP = 64 * 1024;
const NEWLINE = 0x0a;

export async function lineStartNear(path: string, offset: number): Promise<number> {
  if (offset <= 0) return 0;
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    const chunk = Buffer.allocUnsafe(STEP);
    // Forward from the byte before `offset`: a newline there means `offset` starts a line.
    for (let at = offset - 1; at < size; at += STEP) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(STEP, size - at), at);
      const i = chunk.subarray(0, bytesRead).indexOf(NEWLINE);
      if (i >= 0) return at + i + 1;
      if (bytesRead === 0) break;
    }
    // Backward: the start of the line `offset` is in.
    for (let end = Math.min(offset, size); end > 0; end -= STEP) {
      const from = Math.max(0, end - STEP);
      const { bytesRead } = await handle.read(chunk, 0, end - from, from);
      const i = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
      if (i >= 0) return from + i + 1;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

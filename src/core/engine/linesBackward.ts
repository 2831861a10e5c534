/**
 * A file's complete lines from its end back towards its start, in bounded chunks: never the whole
 * file in memory, so a restore can look as far back as it must in a file of any size.
 *
 * Each block holds whole lines only (each ending in its newline), at its byte offset in the file.
 * A line cut by a chunk's edge is carried over and completed by the next (earlier) chunk. Bytes
 * after the file's last newline are a line still being written and are never yielded; neither is
 * a line longer than `maxLineBytes` (the line reader drops those too, so the engine never sees it).
 */
import { open } from "node:fs/promises";
import { DEFAULT_MAX_LINE_BYTES } from "../transcript";

export const BACKWARD_CHUNK_BYTES = 4 * 1024 * 1024;
/** The first look is smaller: most of the time what is wanted (the last turn's start) is close to the end. */
export const FIRST_CHUNK_BYTES = 256 * 1024;

const NEWLINE = 0x0a;

export interface LineBlock {
  /** Whole lines, each ending in "\n". A view of a reused buffer: valid until the next block is asked for. */
  bytes: Buffer;
  /** File offset of `bytes[0]` (always the start of a line). */
  offset: number;
}

export interface BackwardOptions {
  /** The largest chunk; chunks start at `firstChunkBytes` and double up to it. */
  chunkBytes?: number;
  firstChunkBytes?: number;
  maxLineBytes?: number;
  /** Read only the bytes before this offset (default: the file's size when reading starts). */
  end?: number;
}

export async function* linesBackward(path: string, opts: BackwardOptions = {}): AsyncGenerator<LineBlock> {
  const chunkBytes = Math.max(1, opts.chunkBytes ?? BACKWARD_CHUNK_BYTES);
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const handle = await open(path, "r");
  try {
    let pos = opts.end ?? (await handle.stat()).size;
    let size = Math.min(chunkBytes, Math.max(1, opts.firstChunkBytes ?? FIRST_CHUNK_BYTES));
    // Two buffers reused from chunk to chunk: a fresh 4 MB buffer per chunk (and a copy to join
    // it to the carried line) cost ten times the reads themselves, mostly in page faults.
    let work: Buffer = Buffer.allocUnsafe(Math.min(size, pos) + 1024);
    /** The end of a line whose start is further back: its bytes so far. */
    let carry: Buffer = Buffer.allocUnsafe(1024);
    let carryBytes = 0;
    /** The bytes back to the previous newline belong to a line that is not ours to yield. */
    let dropping = true;
    while (pos > 0) {
      const start = Math.max(0, pos - size);
      size = Math.min(size * 2, chunkBytes);
      if (work.length < pos - start + carryBytes) work = Buffer.allocUnsafe(Math.max(pos - start, size) + carryBytes);
      let read = await readFully(handle, work, start, pos - start);
      pos = start;
      if (dropping) {
        const last = work.subarray(0, read).lastIndexOf(NEWLINE);
        if (last < 0) continue;
        dropping = false;
        read = last + 1;
      }
      carry.copy(work, read, 0, carryBytes);
      const filled = read + carryBytes;
      if (start === 0) {
        yield { bytes: work.subarray(0, filled), offset: 0 };
        return;
      }
      const first = work.subarray(0, read).indexOf(NEWLINE);
      if (first < 0) {
        // A line longer than the chunk: keep collecting it, up to the cap.
        if (filled > maxLineBytes) {
          carryBytes = 0;
          dropping = true;
        } else {
          carry = keep(carry, work, filled);
          carryBytes = filled;
        }
        continue;
      }
      if (filled > first + 1) yield { bytes: work.subarray(first + 1, filled), offset: start + first + 1 };
      carry = keep(carry, work, first + 1);
      carryBytes = first + 1;
    }
  } finally {
    await handle.close();
  }
}

/** Copies `source[0, length)` into `into`, growing it when needed. */
function keep(into: Buffer, source: Buffer, length: number): Buffer {
  const target = into.length >= length ? into : Buffer.allocUnsafe(Math.max(length, into.length * 2));
  source.copy(target, 0, 0, length);
  return target;
}

async function readFully(handle: Awaited<ReturnType<typeof open>>, into: Buffer, position: number, length: number): Promise<number> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(into, got, length - got, position + got);
    if (bytesRead === 0) break; // the file shrank while being read: what is there is all there is
    got += bytesRead;
  }
  return got;
}

/** The lines of a block, newest first: [start, end) in block coordinates, `end` at the newline. */
export function* linesOfBlockBackward(bytes: Buffer): Generator<{ start: number; end: number }> {
  let end = bytes.length - 1; // the last byte is a newline
  while (end >= 0) {
    const start = end > 0 ? bytes.lastIndexOf(NEWLINE, end - 1) + 1 : 0;
    yield { start, end };
    end = start - 1;
  }
}

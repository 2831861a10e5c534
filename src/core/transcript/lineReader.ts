/**
 * Incremental JSONL reading by byte offset.
 *
 * Each `read()` returns the complete lines appended since the last call, at most `maxBytesPerRead`
 * bytes of them (call again while `more` is true). Bytes after the last newline wait in a
 * partial-line buffer (as bytes, so a UTF-8 character split across reads is never mangled).
 * A file that shrinks or is replaced by another inode restarts from offset 0 with `reset: true`;
 * a file that does not exist yet reports `missing: true` and is simply read once it appears.
 */
import { open, stat } from "node:fs/promises";

export const DEFAULT_MAX_BYTES_PER_READ = 1024 * 1024;
/** A single line larger than this is dropped (counted as oversized), so memory stays bounded. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface ReadResult {
  /**
   * Complete lines, without their newline, as views of the bytes read: decoding is left to the
   * consumer, which skips most lines (bookkeeping) without ever decoding them.
   */
  lines: Buffer[];
  /** More bytes were available than the cap allowed; call `read()` again. */
  more: boolean;
  /** The file shrank or was replaced: everything known about it before is stale. */
  reset: boolean;
  missing: boolean;
}

export interface LineReaderOptions {
  startOffset?: number;
  maxBytesPerRead?: number;
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;

export class LineReader {
  private offset: number;
  private partialParts: Buffer[] = [];
  private partialLength = 0;
  private inode: number | undefined;
  /** True while dropping the rest of a line that grew past `maxLineBytes`. */
  private discarding = false;
  private readonly maxBytesPerRead: number;
  private readonly maxLineBytes: number;
  /** Lines dropped because they exceeded `maxLineBytes`. */
  oversizedLines = 0;

  constructor(
    readonly path: string,
    opts: LineReaderOptions = {},
  ) {
    this.offset = opts.startOffset ?? 0;
    this.maxBytesPerRead = opts.maxBytesPerRead ?? DEFAULT_MAX_BYTES_PER_READ;
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Byte offset just past the last byte consumed (complete lines and the partial buffer). */
  get position(): number {
    return this.offset;
  }

  /** Continues from `offset`, which must be the start of a line. */
  seek(offset: number): void {
    this.offset = offset;
    this.setPartial(Buffer.alloc(0));
    this.discarding = false;
  }

  /** Continues from the first line that starts at or after `offset`. */
  async seekToLineAfter(offset: number): Promise<void> {
    if (offset <= 0) return this.seek(0);
    // Drop everything up to and including the first newline at or after offset-1: if offset
    // already starts a line, that newline is the byte just before it and nothing is lost.
    this.seek(offset - 1);
    this.discarding = true;
  }

  async read(): Promise<ReadResult> {
    let info;
    try {
      info = await stat(this.path);
    } catch (err) {
      if (isNotFound(err)) {
        const reset = this.offset > 0 || this.partialLength > 0;
        if (reset) this.restart();
        return { lines: [], more: false, reset, missing: true };
      }
      throw err;
    }
    let reset = false;
    if ((this.inode !== undefined && info.ino !== this.inode) || info.size < this.offset) {
      this.restart();
      reset = true;
    }
    this.inode = info.ino;
    const available = info.size - this.offset;
    if (available <= 0) return { lines: [], more: false, reset, missing: false };

    const length = Math.min(available, this.maxBytesPerRead);
    const chunk = Buffer.allocUnsafe(length);
    const handle = await open(this.path, "r");
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(chunk, 0, length, this.offset));
    } finally {
      await handle.close();
    }
    this.offset += bytesRead;
    const lines = this.split(chunk.subarray(0, bytesRead));
    return { lines, more: this.offset < info.size, reset, missing: false };
  }

  /**
   * The unfinished last line, if it is there at all: for a reader that has reached the true end of
   * its input (replay), where a writer that died mid-line leaves no newline behind.
   */
  takePartial(): Buffer | undefined {
    if (this.partialLength === 0 || this.discarding) return undefined;
    const line = Buffer.concat(this.partialParts);
    this.setPartial(Buffer.alloc(0));
    return line;
  }

  /** Splits a chunk into complete lines, carrying the unfinished tail over to the next read. */
  split(chunk: Buffer): Buffer[] {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      this.holdPartial(chunk);
      return [];
    }
    let head = chunk.subarray(0, lastNewline);
    let carried = this.partialParts;
    const tail = chunk.subarray(lastNewline + 1);
    if (this.discarding) {
      // The first line of this chunk is the rest of an oversized line: drop it.
      this.discarding = false;
      carried = [];
      const firstNewline = head.indexOf(NEWLINE);
      if (firstNewline < 0) {
        this.setPartial(tail);
        return [];
      }
      head = head.subarray(firstNewline + 1);
    }
    const whole = carried.length > 0 ? Buffer.concat([...carried, head]) : head;
    this.setPartial(tail);
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = whole.indexOf(NEWLINE); nl >= 0; nl = whole.indexOf(NEWLINE, start)) {
      lines.push(whole.subarray(start, nl));
      start = nl + 1;
    }
    lines.push(whole.subarray(start));
    return lines;
  }

  private holdPartial(chunk: Buffer): void {
    if (this.discarding) return;
    if (this.partialLength + chunk.length > this.maxLineBytes) {
      this.oversizedLines++;
      this.setPartial(Buffer.alloc(0));
      this.discarding = true;
      return;
    }
    // Copy: `chunk` may be a view of a buffer that the caller reuses.
    this.partialParts.push(Buffer.from(chunk));
    this.partialLength += chunk.length;
  }

  private setPartial(tail: Buffer): void {
    this.partialParts = tail.length > 0 ? [Buffer.from(tail)] : [];
    this.partialLength = tail.length;
  }

  private restart(): void {
    this.offset = 0;
    this.setPartial(Buffer.alloc(0));
    this.discarding = false;
    this.inode = undefined;
  }
}

export function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "ENOENT";
}

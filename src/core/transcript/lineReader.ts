/**
 * Incremental JSONL reading by byte offset.
 *
 * Each `read()` returns the complete lines appended since the last call, at most `maxBytesPerRead`
 * bytes of them (call again while `more` is true). Bytes after the last newline wait in a
 * partial-line buffer (as bytes, so a UTF-8 character split across reads is never mangled).
 * A file that does not exist yet reports `missing: true` and is simply read once it appears.
 *
 * A file that was rewritten restarts from offset 0 with `reset: true`. Size and inode alone do not
 * tell: a file truncated and rewritten (or deleted and created again: ext4 hands the inode number
 * back) with content at least as long as what was read looks like one that grew. So the reader also
 * keeps a fingerprint of what it read (see fileFingerprint.ts): the file's birth time, its first
 * bytes and the bytes just before the read position, checked on every pass that finds the file
 * changed — the bytes before the position come with the new ones in the same read, the first bytes
 * cost one small read more. A pass that finds the file unchanged (same size, times and identity, and
 * its mtime old enough to trust) reads nothing.
 */
import { type LocalDisk, localDisk, type ReadHandle } from "../util";
import { FileFingerprint, type FileStat } from "./fileFingerprint";

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
  /**
   * Reads go into this buffer (when they fit), not into a new one each: a read's lines are then
   * views of it, valid only until the next read by any reader that shares it (so readers sharing
   * one must never read at the same time). Why: each new buffer is memory outside V8's heap, and
   * V8 answers a run of them with full garbage collections — the Sessions index reading 2 GB in
   * 256 KB steps ran over a hundred, each one an event-loop stall (up to 20 ms here, 69 ms on a
   * slower machine). Without it (a follower reads little at a time) nothing is kept between reads.
   */
  scratch?: Buffer;
  /**
   * Read nothing at or past this offset (the start of a line): the reader reads a prefix that
   * another reader reads on from (a restore reads its turn from there, and the session's figures
   * what lies before it), so no byte is read twice.
   */
  endOffset?: number;
  /** How its small calls reach the disk (default: the process's one, util/localDisk.ts). */
  disk?: LocalDisk;
}

const NEWLINE = 0x0a;

export class LineReader {
  private offset: number;
  private partialParts: Buffer[] = [];
  private partialLength = 0;
  /** What the file looked like when last read: tells a rewrite from growth. */
  private readonly fingerprint = new FileFingerprint();
  /** True while dropping the rest of a line that grew past `maxLineBytes`. */
  private discarding = false;
  private readonly maxBytesPerRead: number;
  private readonly maxLineBytes: number;
  private readonly scratch: Buffer | undefined;
  private readonly endOffset: number;
  private readonly disk: LocalDisk;
  /** Lines dropped because they exceeded `maxLineBytes`. */
  oversizedLines = 0;

  constructor(
    readonly path: string,
    opts: LineReaderOptions = {},
  ) {
    this.offset = opts.startOffset ?? 0;
    this.maxBytesPerRead = opts.maxBytesPerRead ?? DEFAULT_MAX_BYTES_PER_READ;
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.scratch = opts.scratch;
    this.endOffset = opts.endOffset ?? Number.POSITIVE_INFINITY;
    this.disk = opts.disk ?? localDisk;
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
    this.fingerprint.forgetBytes(offset);
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
    let seen: FileStat;
    try {
      seen = await this.disk.stat(this.path);
    } catch (err) {
      if (isNotFound(err)) return this.missing();
      throw err;
    }
    if (this.fingerprint.unchanged(seen, this.offset)) return { lines: [], more: false, reset: false, missing: false };

    let handle;
    try {
      handle = await this.disk.open(this.path);
    } catch (err) {
      if (isNotFound(err)) return this.missing(); // deleted since the stat
      throw err;
    }
    try {
      // The open file's own stat: the path may have been replaced since the first one.
      const info = await handle.stat({ bigint: true });
      let reset = false;
      if (this.fingerprint.replacedBy(info) || Number(info.size) < this.offset) {
        this.restart();
        reset = true;
      }
      let result = await this.readFrom(handle, info);
      if (result === "rewritten") {
        this.restart();
        reset = true;
        result = (await this.readFrom(handle, info)) as Buffer[]; // from 0 nothing can be "rewritten"
      }
      this.fingerprint.remember(info);
      return { lines: result, more: this.offset < Math.min(Number(info.size), this.endOffset), reset, missing: false };
    } finally {
      await handle.close();
    }
  }

  /**
   * Reads on from the offset, with the bytes just before it in the same read to check they are still
   * the ones read last time (and the file's first bytes in a small read of their own).
   */
  private async readFrom(handle: ReadHandle, info: FileStat): Promise<Buffer[] | "rewritten"> {
    const size = Number(info.size);
    if (size < this.offset) return "rewritten";
    const back = this.fingerprint.bytesBefore(this.offset);
    const from = this.offset - back;
    const fresh = Math.max(0, Math.min(Math.min(size, this.endOffset) - this.offset, this.maxBytesPerRead));
    if (back + fresh === 0) return [];
    const chunk = this.scratch && back + fresh <= this.scratch.length ? this.scratch.subarray(0, back + fresh) : Buffer.allocUnsafe(back + fresh);
    const { bytesRead } = await handle.read(chunk, 0, back + fresh, from);
    if (bytesRead < back) return "rewritten"; // it shrank since its stat
    if (!this.fingerprint.tailMatches(chunk.subarray(0, back))) return "rewritten";
    if (!(await this.fingerprint.headMatches(handle, from, this.offset, chunk))) return "rewritten";
    const got = chunk.subarray(back, bytesRead);
    this.fingerprint.consumed(chunk.subarray(0, bytesRead), this.offset, back);
    this.offset += got.length;
    return got.length > 0 ? this.split(got) : [];
  }

  private missing(): ReadResult {
    const reset = this.offset > 0 || this.partialLength > 0;
    this.restart();
    return { lines: [], more: false, reset, missing: true };
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
    this.setPartial(tail);
    const lines: Buffer[] = [];
    let start = 0;
    if (carried.length > 0) {
      // Only the first line is joined to what was carried over: copying the whole chunk behind
      // it (a megabyte per read) was most of replay's time.
      const firstNewline = head.indexOf(NEWLINE);
      const firstEnd = firstNewline < 0 ? head.length : firstNewline;
      lines.push(Buffer.concat([...carried, head.subarray(0, firstEnd)]));
      if (firstNewline < 0) return lines;
      start = firstNewline + 1;
    }
    for (let nl = head.indexOf(NEWLINE, start); nl >= 0; nl = head.indexOf(NEWLINE, start)) {
      lines.push(head.subarray(start, nl));
      start = nl + 1;
    }
    lines.push(head.subarray(start));
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
    this.fingerprint.forget();
  }
}

export function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "ENOENT";
}

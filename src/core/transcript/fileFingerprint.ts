/**
 * What a LineReader knows of the file it has read, to tell a rewrite from growth without reading
 * the file again: its identity (device, inode, birth time), its size and times at the last read,
 * its first bytes and the bytes just before the read position.
 *
 * Why each part: an inode number comes back on ext4 after unlink + create; a file truncated and
 * rewritten in place keeps inode and birth time, and its size says nothing once the new content is
 * as long as what was read; so the bytes are compared too. The last 64 bytes of a CLI line are the
 * same on every line of a session (sessionId, version, gitBranch), hence a page of them: it spans
 * a uuid and a timestamp. The first bytes hold the session's id.
 */
import type { BigIntStats } from "node:fs";
import { mtimeTooRecent, type ReadHandle } from "../util";

export type FileStat = Pick<BigIntStats, "dev" | "ino" | "size" | "mtimeMs" | "mtimeNs" | "ctimeNs" | "birthtimeNs">;

/** Bytes before the read position re-read (in the same read as the new ones) and compared. */
export const TAIL_BYTES = 4096;
/** The file's first bytes, compared in one small read of their own. */
export const HEAD_BYTES = 512;

const EMPTY = Buffer.alloc(0);

/**
 * Node reports the change time as the birth time where it cannot get a real one (no statx): a birth
 * time is believed only once one has been seen to differ from its change time in this process.
 */
let birthTimesAreReal = false;

function noteBirthTime(s: FileStat): void {
  if (s.birthtimeNs > 0n && s.birthtimeNs !== s.ctimeNs) birthTimesAreReal = true;
}

export class FileFingerprint {
  /** The file as of the last read; undefined before the first one or after a restart. */
  private last: FileStat | undefined;
  /** The first min(HEAD_BYTES, position) bytes; undefined when reading started mid-file and they are not read yet. */
  private head: Buffer | undefined = EMPTY;
  /** The min(TAIL_BYTES, position) bytes before the position; undefined after a seek, until the next read. */
  private tail: Buffer | undefined = EMPTY;

  /** Nothing to read and nothing to check: same file, same size and times, an mtime old enough to trust. */
  unchanged(s: FileStat, position: number): boolean {
    const last = this.last;
    if (!last || Number(s.size) !== position) return false;
    return (
      !this.replacedBy(s) &&
      s.size === last.size &&
      s.mtimeNs === last.mtimeNs &&
      s.ctimeNs === last.ctimeNs &&
      // Times come from a coarse kernel clock: a rewrite in the same tick as the last read leaves them as they were.
      !mtimeTooRecent(s.mtimeNs)
    );
  }

  /** Another file now has the path (deleted and created again, or renamed over it). */
  replacedBy(s: FileStat): boolean {
    const last = this.last;
    if (!last) return false;
    noteBirthTime(s);
    if (s.dev !== last.dev || s.ino !== last.ino) return true;
    return birthTimesAreReal && s.birthtimeNs > 0n && last.birthtimeNs > 0n && s.birthtimeNs !== last.birthtimeNs;
  }

  /** How many bytes before `position` the next read starts, to check them. */
  bytesBefore(position: number): number {
    return this.tail ? this.tail.length : Math.min(TAIL_BYTES, position);
  }

  tailMatches(bytes: Buffer): boolean {
    return this.tail === undefined || bytes.equals(this.tail);
  }

  /**
   * Whether the file still begins as it did; `chunk` holds the bytes read from `from` on. Costs one
   * small read when the chunk does not start at 0 (and none when the first bytes are not known).
   */
  async headMatches(handle: ReadHandle, from: number, position: number, chunk: Buffer): Promise<boolean> {
    if (this.head === undefined) {
      // Reading started mid-file: learn the first bytes now, nothing to compare them with yet.
      const want = Math.min(HEAD_BYTES, position);
      this.head = from === 0 ? Buffer.from(chunk.subarray(0, want)) : await readAt(handle, 0, want);
      return true;
    }
    if (this.head.length === 0) return true;
    const now = from === 0 ? chunk.subarray(0, this.head.length) : await readAt(handle, 0, this.head.length);
    return now.equals(this.head);
  }

  /**
   * `bytes` were read from `position - bytesBefore(position)` on, and everything after the first
   * bytesBefore(position) of them was consumed.
   */
  consumed(bytes: Buffer, position: number, back: number): void {
    this.tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)));
    const head = this.head;
    if (head !== undefined && head.length < HEAD_BYTES && head.length === position) {
      this.head = Buffer.concat([head, bytes.subarray(back, back + HEAD_BYTES - head.length)]);
    }
  }

  remember(s: FileStat): void {
    noteBirthTime(s);
    const { dev, ino, size, mtimeMs, mtimeNs, ctimeNs, birthtimeNs } = s;
    this.last = { dev, ino, size, mtimeMs, mtimeNs, ctimeNs, birthtimeNs };
  }

  /** Reading starts over at 0: nothing known. */
  forget(): void {
    this.last = undefined;
    this.head = EMPTY;
    this.tail = EMPTY;
  }

  /** Reading goes on from `position` in the same file: the bytes around it are not known yet. */
  forgetBytes(position: number): void {
    this.head = position === 0 ? EMPTY : undefined;
    this.tail = position === 0 ? EMPTY : undefined;
  }
}

async function readAt(handle: ReadHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

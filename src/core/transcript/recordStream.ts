/**
 * A transcript file as a pull stream of parsed records, read in bounded chunks (never the whole
 * file). Used where a file is read to its end once: replay, and the sub-agent files of a session.
 */
import { LineReader } from "./lineReader";
import { type LineStats, parseLine } from "./parseLine";
import type { Json } from "./recordShapes";

export const REPLAY_CHUNK_BYTES = 4 * 1024 * 1024;

export class RecordStream {
  private readonly reader: LineReader;
  private lines: Buffer[] = [];
  private index = 0;
  private done = false;
  private oversizedSeen = 0;

  constructor(
    path: string,
    private readonly stats: LineStats,
    chunkBytes = REPLAY_CHUNK_BYTES,
    maxLineBytes?: number,
  ) {
    this.reader = new LineReader(path, { maxBytesPerRead: chunkBytes, maxLineBytes });
  }

  get path(): string {
    return this.reader.path;
  }

  /** The next record, or undefined at the end of the file. Throws only if the file cannot be read. */
  async next(): Promise<Json | undefined> {
    for (;;) {
      while (this.index < this.lines.length) {
        const record = parseLine(this.lines[this.index++] as Buffer, this.stats);
        if (record) return record;
      }
      if (this.done) return undefined;
      this.lines = [];
      this.index = 0;
      const result = await this.reader.read();
      if (result.missing) throw Object.assign(new Error(`no such file: ${this.reader.path}`), { code: "ENOENT" });
      this.lines = result.lines;
      this.stats.oversized += this.reader.oversizedLines - this.oversizedSeen;
      this.oversizedSeen = this.reader.oversizedLines;
      if (!result.more) {
        this.done = true;
        // A writer that died mid-line leaves a last line without its newline.
        const last = this.reader.takePartial();
        if (last !== undefined) this.lines.push(last);
      }
    }
  }
}

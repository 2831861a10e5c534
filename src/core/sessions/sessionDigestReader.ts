/**
 * Feeds a session's transcript, and its sub-agents' files (their tokens count for it), to a
 * `SessionDigestFold` incrementally: each `advance()` reads only what the files gained (by byte
 * offset, through LineReader), and a rewritten main file starts the fold again. Title records,
 * which the line parser skips as bookkeeping, are picked out by their first bytes.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { LineReader, type LineStats, newLineStats, parseLine, sessionIdOf, subagentDirOf } from "../transcript";
import { SessionDigestFold, sessionRecordOf } from "./sessionDigest";

/** Sub-agent files followed per session at most (each holds a reader). */
const MAX_SUBAGENT_FILES = 200;

export interface DigestReaderOptions {
  /** The session's folder, when known (else its records say). */
  cwd?: string;
  /** Bytes read per step (default: the reader's 1 MB): smaller steps hold the event loop less. */
  maxBytesPerRead?: number;
  /** Also read `<session>/subagents/*.jsonl` for their tokens (default true). */
  subagents?: boolean;
  /** One buffer for every read (see LineReaderOptions.scratch): its caller reads one file at a time. */
  scratch?: Buffer;
}

export class SessionDigestReader {
  private main: LineReader;
  private readonly subagents = new Map<string, LineReader>();
  private fold: SessionDigestFold;
  readonly stats: LineStats = newLineStats();

  constructor(
    readonly transcriptPath: string,
    private readonly opts: DigestReaderOptions = {},
  ) {
    this.main = this.readerOf(transcriptPath);
    this.fold = new SessionDigestFold(sessionIdOf(transcriptPath), opts.cwd);
  }

  get current(): SessionDigestFold {
    return this.fold;
  }

  /** Reads what the files gained since the last call. True when anything was read (or the file was rewritten). */
  async advance(): Promise<boolean> {
    let changed = await this.drain(
      this.main,
      (line) => this.onMainLine(line),
      () => {
        this.fold = new SessionDigestFold(this.fold.sessionId, this.opts.cwd);
        this.subagents.clear();
      },
    );
    if (this.opts.subagents !== false) {
      for (const path of await this.subagentFiles()) {
        let reader = this.subagents.get(path);
        if (!reader) {
          if (this.subagents.size >= MAX_SUBAGENT_FILES) break;
          reader = this.readerOf(path);
          this.subagents.set(path, reader);
        }
        if (
          await this.drain(
            reader,
            (line) => this.onSubagentLine(line),
            () => {},
          )
        )
          changed = true;
      }
    }
    return changed;
  }

  private readerOf(path: string): LineReader {
    return new LineReader(path, { maxBytesPerRead: this.opts.maxBytesPerRead, scratch: this.opts.scratch });
  }

  private async drain(reader: LineReader, onLine: (line: Buffer) => void, onReset: () => void): Promise<boolean> {
    let read = false;
    for (;;) {
      const result = await reader.read();
      if (result.reset) {
        onReset();
        read = true;
      }
      for (const line of result.lines) onLine(line);
      if (result.lines.length > 0) read = true;
      if (!result.more) return read;
    }
  }

  private onMainLine(line: Buffer): void {
    const record = sessionRecordOf(line, this.stats);
    if (record) this.fold.add(record);
  }

  private onSubagentLine(line: Buffer): void {
    const record = parseLine(line, this.stats);
    if (record) this.fold.addUsage(record);
  }

  private async subagentFiles(): Promise<string[]> {
    const dir = subagentDirOf(this.transcriptPath);
    try {
      const names = await readdir(dir);
      return names
        .filter((n) => n.endsWith(".jsonl"))
        .sort()
        .map((n) => join(dir, n));
    } catch {
      return [];
    }
  }
}

/** The digest of a whole file, read once (the Sessions index). */
export async function readSessionDigest(transcriptPath: string, opts: DigestReaderOptions = {}) {
  const reader = new SessionDigestReader(transcriptPath, opts);
  await reader.advance();
  return reader.current.digest();
}

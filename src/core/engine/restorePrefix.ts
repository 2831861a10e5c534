/**
 * What a restore skips — a session file's bytes before its restore point — read once, in the line
 * reader's bounded steps and never past the point, for a receiver other than the engine (the
 * session's figures: core/engine/transcriptRead.ts). The engine reads on from the point itself.
 */
import { type Json, LineReader, type LineStats, parseLine } from "../transcript";

export interface PrefixLimits {
  maxBytesPerRead?: number;
  maxLineBytes?: number;
  /** Counts the lines read (the follower's). */
  stats: LineStats;
}

export async function readPrefix(path: string, end: number, limits: PrefixLimits, stopped: () => boolean, onRecords: (records: Json[]) => void): Promise<void> {
  if (end <= 0) return;
  const reader = new LineReader(path, { maxBytesPerRead: limits.maxBytesPerRead, maxLineBytes: limits.maxLineBytes, endOffset: end });
  for (;;) {
    const result = await reader.read();
    const records: Json[] = [];
    for (const line of result.lines) {
      const record = parseLine(line, limits.stats);
      if (record) records.push(record);
    }
    if (records.length > 0) onRecords(records);
    if (!result.more || result.missing || stopped()) return;
  }
}

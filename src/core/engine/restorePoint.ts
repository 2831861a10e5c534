/**
 * Where to start reading a large transcript to rebuild an agent's current state: the start of the
 * current turn (or the record that ended the last one), found by reading backwards from the end in
 * small chunks. Cost depends on the size of the last turn, not of the file, and is capped.
 */
import { open } from "node:fs/promises";
import { contentText, isObject } from "../transcript/recordShapes";

export const RESTORE_CHUNK_BYTES = 64 * 1024;
/** Past this, a turn is taken as still running from the window's first line on. */
export const RESTORE_MAX_BYTES = 4 * 1024 * 1024;

export interface RestorePoint {
  /** Byte offset of the first line to read. */
  offset: number;
  /**
   * `boundary`: a turn start or end was found (state follows from reading on from there);
   * `file-start`: the file is short enough to read whole;
   * `window`: no boundary within the cap, so a turn is running.
   */
  found: "boundary" | "file-start" | "window";
}

/** A record after which the agent's state does not depend on anything earlier in the file. */
export function isTurnBoundary(line: string): boolean {
  // Cheap filters first: most lines (tool results, bookkeeping) cannot be boundaries.
  const maybeSystem = line.includes('"turn_duration"') || line.includes('"local_command"');
  const maybeError = line.includes('"isApiErrorMessage":true');
  const maybeUser = line.includes('"type":"user"') && !line.includes('"tool_use_id"');
  if (!maybeSystem && !maybeError && !maybeUser) return false;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return false;
  }
  if (!isObject(record) || record.isSidechain === true) return false;
  if (record.type === "system") return record.subtype === "turn_duration" || record.subtype === "local_command";
  if (record.type === "assistant") return record.isApiErrorMessage === true;
  if (record.type !== "user" || record.isMeta === true) return false;
  const message = isObject(record.message) ? record.message : {};
  return contentText(message.content).trim().length > 0;
}

export async function findRestorePoint(path: string, maxBytes = RESTORE_MAX_BYTES): Promise<RestorePoint> {
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    const floor = Math.max(0, size - maxBytes);
    // Everything from `examinedFrom` on has been looked at (or is the unfinished last line).
    let examinedFrom = size;
    let firstCompleteLine: number | undefined;
    let atEof = true;
    let span = RESTORE_CHUNK_BYTES;
    while (examinedFrom > floor) {
      const start = Math.max(floor, examinedFrom - span);
      const buf = Buffer.allocUnsafe(examinedFrom - start);
      await handle.read(buf, 0, buf.length, start);
      // `lineEnd`: index of the newline that ends the line being looked at.
      let lineEnd = buf.length - 1;
      if (atEof) {
        // Bytes after the last newline belong to a line still being written: not ours to judge.
        lineEnd = buf.lastIndexOf(0x0a);
        if (lineEnd < 0) {
          if (start === floor) break;
          span += RESTORE_CHUNK_BYTES;
          continue;
        }
        atEof = false;
        examinedFrom = start + lineEnd + 1;
      }
      let progressed = false;
      for (;;) {
        const nl = lineEnd > 0 ? buf.lastIndexOf(0x0a, lineEnd - 1) : -1;
        // The line starts before this buffer: read further back.
        if (nl < 0 && start !== 0) break;
        const lineStart = nl + 1;
        const offset = start + lineStart;
        if (lineEnd > lineStart && isTurnBoundary(buf.toString("utf8", lineStart, lineEnd))) {
          return { offset, found: "boundary" };
        }
        firstCompleteLine = offset;
        examinedFrom = offset;
        progressed = true;
        if (nl < 0) break;
        lineEnd = nl;
      }
      if (examinedFrom === 0 || (!progressed && start === floor)) break;
      // A line longer than the span: widen the read until its start is in view.
      span = progressed ? RESTORE_CHUNK_BYTES : span + RESTORE_CHUNK_BYTES;
    }
    // No boundary at all: a short file is simply read whole.
    if (floor === 0) return { offset: 0, found: "file-start" };
    return { offset: firstCompleteLine ?? size, found: "window" };
  } finally {
    await handle.close();
  }
}

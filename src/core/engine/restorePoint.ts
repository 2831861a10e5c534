/**
 * Where to start reading a large transcript to rebuild an agent's current state: the start of the
 * last turn (or, if that is out of reach, the record that ended it), or earlier if a background sub-agent
 * launched in an earlier turn has not reported back yet (its `Agent` call is still running).
 *
 * Only a bounded window at the end of the file is looked at, so the cost does not grow with the
 * file: a turn longer than the window is taken as running from the window's first line on.
 */
import { open } from "node:fs/promises";
import { asArray, contentText, isObject, tagValue } from "../transcript/recordShapes";
import { withoutBom } from "../transcript/parseLine";

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

const NEWLINE = 0x0a;

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(withoutBom(line));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export type TurnMark = "start" | "end";

/**
 * What a line means for turns: `start` — a prompt or a background task's notification;
 * `end` — `turn_duration`, an interrupt, a final API error. Slash commands and their output are
 * neither: after a local command the card still shows how the last turn went.
 */
export function turnMark(line: string): TurnMark | undefined {
  // Cheap filters first: most lines (tool results, bookkeeping) cannot be either.
  const maybeSystem = line.includes('"turn_duration"');
  const maybeError = line.includes('"isApiErrorMessage":true');
  const maybeUser = line.includes('"type":"user"') && !line.includes('"tool_use_id"');
  if (!maybeSystem && !maybeError && !maybeUser) return undefined;
  const record = parse(line);
  if (!record || record.isSidechain === true) return undefined;
  if (record.type === "system") return record.subtype === "turn_duration" ? "end" : undefined;
  if (record.type === "assistant") return record.isApiErrorMessage === true ? "end" : undefined;
  if (record.type !== "user" || record.isMeta === true || record.isCompactSummary === true) return undefined;
  const message = isObject(record.message) ? record.message : {};
  const text = contentText(message.content).trimStart();
  if (!text || text.includes("<command-name>") || text.includes("<local-command-")) return undefined;
  return text.startsWith("[Request interrupted by user") ? "end" : "start";
}

/** Whether reading from this line on gives the agent's whole current state. */
export function isTurnBoundary(line: string): boolean {
  return turnMark(line) !== undefined;
}

/** The line around byte `at`: [start, end) with end at its newline. */
function lineAround(buf: Buffer, at: number): { start: number; end: number } {
  const start = at > 0 ? buf.lastIndexOf(NEWLINE, at - 1) + 1 : 0;
  const nl = buf.indexOf(NEWLINE, at);
  return { start, end: nl < 0 ? buf.length : nl };
}

function* occurrences(buf: Buffer, needle: string, from: number, to: number): Generator<{ start: number; end: number }> {
  for (let at = buf.indexOf(needle, from); at >= 0 && at < to; at = buf.indexOf(needle, at + needle.length)) {
    const line = lineAround(buf, at);
    yield line;
    at = Math.max(at, line.end);
  }
}

/**
 * The start of the oldest `Agent` tool_use (before `before`) whose sub-agent runs in the
 * background and has not reported back through a task notification by the end of the window.
 */
function oldestRunningBackgroundAgent(buf: Buffer, from: number, before: number, end: number): number | undefined {
  const launched = new Map<string, number>();
  for (const line of occurrences(buf, '"async_launched"', from, before)) {
    const record = parse(buf.toString("utf8", line.start, line.end));
    if (record?.type !== "user" || !isObject(record.message)) continue;
    for (const block of asArray(record.message.content)) {
      if (isObject(block) && block.type === "tool_result" && typeof block.tool_use_id === "string") {
        launched.set(block.tool_use_id, line.start);
      }
    }
  }
  if (launched.size === 0) return undefined;
  for (const line of occurrences(buf, "<task-notification>", from, end)) {
    const record = parse(buf.toString("utf8", line.start, line.end));
    if (record?.type !== "user" || !isObject(record.message)) continue;
    const id = tagValue(contentText(record.message.content), "tool-use-id");
    if (id) launched.delete(id);
  }
  let oldest: number | undefined;
  for (const [id, resultLine] of launched) {
    const use = buf.lastIndexOf(`"id":"${id}"`, resultLine);
    if (use < from) continue;
    const start = lineAround(buf, use).start;
    oldest = oldest === undefined ? start : Math.min(oldest, start);
  }
  return oldest;
}

export async function findRestorePoint(path: string, maxBytes = RESTORE_MAX_BYTES): Promise<RestorePoint> {
  const handle = await open(path, "r");
  let buf: Buffer;
  let floor: number;
  try {
    const size = (await handle.stat()).size;
    floor = Math.max(0, size - maxBytes);
    buf = Buffer.allocUnsafe(size - floor);
    const { bytesRead } = await handle.read(buf, 0, buf.length, floor);
    buf = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  // Bytes after the last newline belong to a line still being written: not ours to judge.
  const lastNewline = buf.lastIndexOf(NEWLINE);
  // Mid-file, the window's first bytes are the tail of a line that began before it.
  const firstLine = floor === 0 ? 0 : buf.indexOf(NEWLINE) + 1;
  if (lastNewline < 0 || (floor > 0 && firstLine === 0)) {
    return floor === 0 ? { offset: 0, found: "file-start" } : { offset: floor + buf.length, found: "window" };
  }

  // Back to the start of the last turn, so its finished tools can be shown too; failing that
  // (a turn longer than the window), to the newest record that ended a turn.
  let boundary: number | undefined;
  let lastEnd: number | undefined;
  for (let lineEnd = lastNewline; lineEnd >= firstLine; ) {
    const lineStart = lineEnd > 0 ? buf.lastIndexOf(NEWLINE, lineEnd - 1) + 1 : 0;
    if (lineStart < firstLine) break;
    const mark = lineEnd > lineStart ? turnMark(buf.toString("utf8", lineStart, lineEnd)) : undefined;
    if (mark === "start") {
      boundary = lineStart;
      break;
    }
    if (mark === "end") lastEnd ??= lineStart;
    if (lineStart === 0) break;
    lineEnd = lineStart - 1;
  }
  boundary ??= floor > 0 ? lastEnd : undefined;
  const turnStart = boundary ?? firstLine;
  const start = Math.min(turnStart, oldestRunningBackgroundAgent(buf, firstLine, turnStart, lastNewline) ?? turnStart);
  if (boundary !== undefined) return { offset: floor + start, found: "boundary" };
  return floor === 0 ? { offset: 0, found: "file-start" } : { offset: floor + start, found: "window" };
}

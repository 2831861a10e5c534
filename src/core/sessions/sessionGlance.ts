/**
 * A session at a glance from the ends of its file only: its first prompt, cwd and start from the
 * head, its latest title and last activity from the tail. What the Sessions view shows before a
 * session's full digest is indexed (and all it needs to read for a file that has not changed).
 */
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { sessionIdOf } from "../transcript/subagentFiles";
import { newLineStats } from "../transcript/parseLine";
import { isObject, type Json, timestampOf } from "../transcript/recordShapes";
import { TranscriptInterpreter } from "../transcript/interpreter";
import { sessionRecordOf, titleOf } from "./sessionDigest";

/** Bytes read at each end: the first prompt is within the first few records, titles are re-appended at the end. */
export const GLANCE_BYTES = 48 * 1024;
const PROMPT_CHARS = 200;

export interface SessionGlance {
  sessionId: string;
  title?: string;
  firstPrompt?: string;
  startedAt?: number;
  lastActiveAt?: number;
  cwd?: string;
}

/** Complete lines of a chunk; `cutHead`: the chunk starts mid-file, so its first line is a fragment. */
function linesOf(chunk: Buffer, cutHead: boolean, cutTail: boolean): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  if (cutHead) {
    const first = chunk.indexOf(0x0a);
    if (first < 0) return [];
    start = first + 1;
  }
  for (;;) {
    const end = chunk.indexOf(0x0a, start);
    if (end < 0) break;
    lines.push(chunk.subarray(start, end));
    start = end + 1;
  }
  if (!cutTail && start < chunk.length) lines.push(chunk.subarray(start));
  return lines;
}

export async function glanceSession(path: string, size: number): Promise<SessionGlance> {
  const glance: SessionGlance = { sessionId: sessionIdOf(path) };
  const stats = newLineStats();
  const handle = await open(path, "r");
  try {
    const headBytes = Math.min(size, GLANCE_BYTES);
    const head = Buffer.alloc(headBytes);
    const { bytesRead } = await handle.read(head, 0, headBytes, 0);
    const whole = bytesRead >= size;
    const interpreter = new TranscriptInterpreter();
    let titleRank = -1;
    const ranks = { summary: 0, ai: 1, custom: 2 } as const;
    const seeTitle = (record: Json) => {
      const title = titleOf(record);
      if (title && ranks[title.source] >= titleRank) {
        titleRank = ranks[title.source];
        glance.title = title.text;
      }
    };
    const seeTime = (record: Json) => {
      const at = record.type === "user" || record.type === "assistant" || record.type === "system" ? timestampOf(record) : undefined;
      if (at === undefined) return;
      glance.startedAt ??= at;
      glance.lastActiveAt = Math.max(glance.lastActiveAt ?? at, at);
    };
    for (const line of linesOf(head.subarray(0, bytesRead), false, !whole)) {
      const record = sessionRecordOf(line, stats);
      if (!record) continue;
      seeTitle(record);
      seeTime(record);
      if (glance.cwd === undefined && typeof record.cwd === "string") glance.cwd = record.cwd;
      if (glance.firstPrompt !== undefined) continue;
      for (const event of interpreter.handle(record)) {
        if (event.kind !== "prompt" || event.source !== "user") continue;
        const text = event.text.replace(/\s+/g, " ").trim();
        if (text) glance.firstPrompt = text.length > PROMPT_CHARS ? `${text.slice(0, PROMPT_CHARS - 1).trimEnd()}…` : text;
        break;
      }
    }
    if (!whole) {
      const tailStart = Math.max(headBytes, size - GLANCE_BYTES);
      const tail = Buffer.alloc(size - tailStart);
      const read = await handle.read(tail, 0, tail.length, tailStart);
      for (const line of linesOf(tail.subarray(0, read.bytesRead), true, false)) {
        const record = sessionRecordOf(line, stats);
        if (!record) continue;
        seeTitle(record);
        seeTime(record);
      }
    }
    const named = await customTitleFile(path);
    if (named) glance.title = named;
    return glance;
  } finally {
    await handle.close();
  }
}

/**
 * `<session-id>/custom-title.json` (CLI 2.1.330 writes it on /rename beside the transcript): the
 * session's current name, whatever part of the file the glance missed.
 */
async function customTitleFile(transcriptPath: string): Promise<string | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(join(transcriptPath.slice(0, -".jsonl".length), "custom-title.json"), "utf8"));
    return isObject(value) ? titleOf({ type: "custom-title", customTitle: value.customTitle })?.text : undefined;
  } catch {
    return undefined;
  }
}

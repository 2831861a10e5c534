/**
 * A session at a glance from the ends of its file only: its first prompt, cwd and start from the
 * head, its latest title and last activity from the tail. What the Sessions view shows before a
 * session's full digest is indexed (and all it needs to read for a file that has not changed).
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { isObject, newLineStats, sessionIdOf, timestampOf, TranscriptInterpreter } from "../transcript";
import type { TranscriptEvent } from "../transcript";
import { betterTitle, isConversation, isTitleAt, sessionRecordOf, type SessionTitle, titleOf } from "./sessionDigest";
import { oneLine } from "../util";

/** Bytes read at each end: the first prompt is within the first few records, titles are re-appended at the end. */
export const GLANCE_BYTES = 16 * 1024;
const PROMPT_CHARS = 200;

export interface SessionGlance {
  sessionId: string;
  title?: string;
  firstPrompt?: string;
  startedAt?: number;
  lastActiveAt?: number;
  cwd?: string;
}

/** The part of the file read once more when the first prompt is not within the first GLANCE_BYTES. */
const LONG_HEAD_BYTES = 256 * 1024;
/**
 * How much of the head is read, one step after the other until the first prompt is in it: it
 * nearly always is within the first 4 KB, and a list of 5,000 sessions spent most of its time
 * copying bytes it never looked at.
 */
const HEAD_STEPS = [4 * 1024, GLANCE_BYTES, LONG_HEAD_BYTES];

/**
 * The buffer every glance reads into (what it reads is parsed before its next read, and a glance
 * is synchronous, so one buffer serves them all): a new 16 KB buffer per read was memory outside
 * V8's heap, which V8 answers with garbage collections (10 % of a 5,000-session list).
 */
const scratch = Buffer.allocUnsafe(GLANCE_BYTES);

function readAt(fd: number, position: number, length: number): Buffer {
  // Unzeroed: only the bytes read are used.
  const buffer = length <= scratch.length ? scratch : Buffer.allocUnsafe(length);
  return buffer.subarray(0, readSync(fd, buffer, 0, length, position));
}

/**
 * Synchronous on purpose: a few small reads of a file the page cache most likely holds take
 * microseconds, while each asynchronous one pays a trip through libuv's thread pool (measured: 1,000
 * glances in 25–34 ms this way, 143–179 ms with fs/promises). The index calls it in slices and
 * yields between them, so the event loop is never held long.
 * `hasFolder`: the session has a `<id>/` folder, where the CLI keeps custom-title.json (default: look).
 */
export function glanceSession(path: string, size: number, hasFolder = true): SessionGlance {
  const glance: SessionGlance = { sessionId: sessionIdOf(path) };
  const stats = newLineStats();
  let title: SessionTitle | undefined;
  const fd = openSync(path, "r");
  try {
    // Head: records up to the first prompt (its time is the session's start), nothing after it.
    for (const length of HEAD_STEPS) {
      const head = readAt(fd, 0, Math.min(size, length));
      const interpreter = new TranscriptInterpreter();
      // Line by line in place, cut out one at a time: the prompt is nearly always the first line,
      // and cutting every line of the head first made a buffer view per line never looked at.
      const cutTail = head.length < size;
      for (let start = 0, end = 0; start < head.length; start = end + 1) {
        const newline = head.indexOf(0x0a, start);
        if (newline < 0 && cutTail) break;
        end = newline < 0 ? head.length : newline;
        const record = sessionRecordOf(head.subarray(start, end), stats);
        if (!record) continue;
        title = betterTitle(title, record);
        if (glance.cwd === undefined && typeof record.cwd === "string") glance.cwd = record.cwd;
        if (isConversation(record)) glance.startedAt ??= timestampOf(record);
        if (hasFirstPrompt(glance, interpreter.handle(record))) break;
      }
      if (glance.firstPrompt !== undefined || head.length >= size) break;
    }
    // Tail: the latest title records (the CLI appends them again at the end), and the time of the
    // last conversation record, looked for from the end. Lines are found by their newlines and
    // only those looked at are cut out (a 5,000-session list made a buffer view per tail line).
    const tailStart = Math.max(0, size - GLANCE_BYTES);
    const tail = readAt(fd, tailStart, size - tailStart);
    const firstLine = tailStart > 0 ? tail.indexOf(0x0a) + 1 : 0;
    if (tailStart === 0 || firstLine > 0) {
      for (let start = firstLine; start < tail.length;) {
        const newline = tail.indexOf(0x0a, start);
        const end = newline < 0 ? tail.length : newline;
        if (isTitleAt(tail, start, end)) title = betterTitle(title, sessionRecordOf(tail.subarray(start, end), stats) ?? {});
        start = end + 1;
      }
      for (let end = tail.length; end > firstLine && glance.lastActiveAt === undefined;) {
        if (tail[end - 1] === 0x0a) end--;
        // (lastIndexOf from a negative offset would count from the end.)
        const start = end > 0 ? Math.max(firstLine, tail.lastIndexOf(0x0a, end - 1) + 1) : 0;
        const record = end > start ? sessionRecordOf(tail.subarray(start, end), stats) : undefined;
        if (record && isConversation(record)) glance.lastActiveAt = timestampOf(record);
        end = start;
      }
    }
    glance.lastActiveAt ??= glance.startedAt;
    glance.title = (hasFolder ? customTitleFile(path) : undefined) ?? title?.text;
    return glance;
  } finally {
    closeSync(fd);
  }
}

/** A user's prompt among these events, set as the glance's first prompt (a loop, no closure per record). */
function hasFirstPrompt(glance: SessionGlance, events: readonly TranscriptEvent[]): boolean {
  for (const event of events) if (event.kind === "prompt" && event.source === "user" && setPrompt(glance, event.text)) return true;
  return false;
}

function setPrompt(glance: SessionGlance, text: string): boolean {
  const line = oneLine(text, PROMPT_CHARS);
  if (line) glance.firstPrompt = line;
  return line !== "";
}

/**
 * `<session-id>/custom-title.json` (CLI 2.1.330 writes it on /rename beside the transcript): the
 * session's current name, whatever part of the file the glance missed.
 */
function customTitleFile(transcriptPath: string): string | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(join(transcriptPath.slice(0, -".jsonl".length), "custom-title.json"), "utf8"));
    return isObject(value) ? titleOf({ type: "custom-title", customTitle: value.customTitle })?.text : undefined;
  } catch {
    return undefined;
  }
}

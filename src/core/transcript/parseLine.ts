/**
 * One JSONL line → one record object, or nothing. A malformed line is counted and skipped;
 * it never throws, because one bad line must not cost the user the rest of the transcript.
 */
import { isObject, type Json } from "./recordShapes";

export interface LineStats {
  lines: number;
  /** Longer than the reader's cap (64 MB): dropped unread, so whatever it held is unknown. */
  oversized: number;
  /** Not JSON at all (a torn write, garbage). */
  malformed: number;
  /** Valid JSON but not an object (a number, an array, a string). */
  notObject: number;
  /** An object whose `type` this version of Arcadia does not know; new CLI versions add types. */
  unknownType: number;
}

export function newLineStats(): LineStats {
  return { lines: 0, oversized: 0, malformed: 0, notObject: 0, unknownType: 0 };
}

/** Record types seen from the CLI. Only user, assistant, system and progress carry meaning. */
const KNOWN_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "progress",
  "summary",
  "attachment",
  "queue-operation",
  "mode",
  "permission-mode",
  "file-history-snapshot",
  "last-prompt",
  "cost-state",
  "custom-title",
  "agent-name",
  "tag",
  "pr-link",
  "api-request",
  "api-request-blob",
  "api-request-shape",
  "api-response",
  "atis-latch",
  "tools-used",
  "file-history-delta",
]);

/** Types that carry the conversation; every other record is bookkeeping to skip. */
const CONVERSATION_TYPES = new Set(["user", "assistant", "system", "progress"]);

const TYPE_PREFIX = '{"type":"';
/** Attachment records open with these keys in current CLIs; checked before paying for a parse. */
const ATTACHMENT_HEAD = /^\{"parentUuid":(?:null|"[^"]*"),"isSidechain":(?:true|false),"attachment":\{/;

/**
 * Recognizes bookkeeping records from their first bytes, without parsing them. Current CLIs
 * write them with `type` first, and some (`api-request-blob`) copy the whole prompt: skipping
 * them unparsed is most of replay's speed. Anything not recognized here is parsed normally.
 */
function isBookkeeping(head: string, length: number): boolean {
  if (head.startsWith(TYPE_PREFIX)) {
    const end = head.indexOf('"', TYPE_PREFIX.length);
    if (end < 0 || end > 64) return false;
    const type = head.slice(TYPE_PREFIX.length, end);
    return !CONVERSATION_TYPES.has(type) && (KNOWN_TYPES.has(type) || type.startsWith("api-request"));
  }
  return length > 200 && ATTACHMENT_HEAD.test(head);
}

const HEAD_BYTES = 160;

/**
 * Without a leading UTF-8 byte order mark. Editors on Windows add one when a file is saved; JSON
 * does not allow it, and it would cost the first record of the file.
 */
export function withoutBom<T extends string | Buffer>(line: T): T {
  if (typeof line === "string") return (line.charCodeAt(0) === 0xfeff ? line.slice(1) : line) as T;
  const bytes = line as Buffer;
  return (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes) as T;
}

/**
 * Accepts the raw bytes of a line (as the reader delivers them) or a string. Bytes are decoded
 * only for lines that are not recognizably bookkeeping: decoding is most of the cost of reading.
 */
export function parseLine(raw: string | Buffer, stats: LineStats): Json | undefined {
  const line = withoutBom(raw);
  if (line.length === 0) return undefined;
  const head = typeof line === "string" ? line.slice(0, HEAD_BYTES) : line.toString("latin1", 0, Math.min(line.length, HEAD_BYTES));
  if (line.length < 3 && head.trim() === "") return undefined;
  stats.lines++;
  if (isBookkeeping(head, line.length)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(typeof line === "string" ? line : line.toString("utf8"));
  } catch {
    stats.malformed++;
    return undefined;
  }
  if (!isObject(value)) {
    stats.notObject++;
    return undefined;
  }
  const type = value.type;
  if (typeof type !== "string" || (!KNOWN_TYPES.has(type) && !type.startsWith("api-request"))) {
    stats.unknownType++;
    return undefined;
  }
  return value;
}

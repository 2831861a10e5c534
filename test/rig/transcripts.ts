// Reading transcripts while the CLI is still appending to them. The last line may be half
// written, so unparseable trailing lines are skipped rather than fatal.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pollUntil } from "../support/waitFor";

export type TranscriptRecord = Record<string, unknown> & {
  type?: string;
  subtype?: string;
  uuid?: string;
  parentUuid?: string | null;
  sessionId?: string;
  message?: { role?: string; content?: unknown; id?: string; stop_reason?: string | null };
};

export function readRecords(path: string): TranscriptRecord[] {
  if (!existsSync(path)) return [];
  const out: TranscriptRecord[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as TranscriptRecord);
    } catch {
      // A line still being written.
    }
  }
  return out;
}

/** The content blocks of a user/assistant record (a string prompt becomes one text block). */
export function blocks(record: TranscriptRecord): { type?: string; [k: string]: unknown }[] {
  const c = record.message?.content;
  if (typeof c === "string") return [{ type: "text", text: c }];
  return Array.isArray(c) ? (c as { type?: string }[]) : [];
}

/** A content block as the tests read it (every field optional: the format is the CLI's). */
export interface ContentBlock {
  type?: string;
  id?: string;
  name?: string;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/**
 * The first call of `toolName` in a transcript: its tool_use, its tool_result (undefined when
 * none was written), the result's content as text, and the assistant texts written after it.
 */
export function toolExchange(records: TranscriptRecord[], toolName: string) {
  const all = records.flatMap((r) => (Array.isArray(r.message?.content) ? (r.message.content as ContentBlock[]) : []));
  const use = all.find((b) => b.type === "tool_use" && b.name === toolName);
  const answerAt = use ? all.findIndex((b) => b.type === "tool_result" && b.tool_use_id === use.id) : -1;
  const answer = answerAt >= 0 ? all[answerAt] : undefined;
  return {
    use,
    answer,
    text: answer === undefined ? "" : typeof answer.content === "string" ? answer.content : JSON.stringify(answer.content),
    after:
      answerAt >= 0
        ? all
            .slice(answerAt + 1)
            .filter((b) => b.type === "text")
            .map((b) => b.text)
        : [],
  };
}

export const isToolUse = (name?: string) => (r: TranscriptRecord) =>
  r.type === "assistant" && blocks(r).some((b) => b.type === "tool_use" && (!name || b.name === name));

export const isToolResult = (r: TranscriptRecord) => r.type === "user" && blocks(r).some((b) => b.type === "tool_result");

export const isTurnEnd = (r: TranscriptRecord) => r.type === "system" && r.subtype === "turn_duration";

export const isAssistantText = (text?: string | RegExp) => (r: TranscriptRecord) =>
  r.type === "assistant" &&
  blocks(r).some((b) => b.type === "text" && (text === undefined || (typeof text === "string" ? String(b.text).includes(text) : text.test(String(b.text)))));

export const isUserText = (text: string | RegExp) => (r: TranscriptRecord) =>
  r.type === "user" && blocks(r).some((b) => b.type === "text" && (typeof text === "string" ? String(b.text).includes(text) : text.test(String(b.text))));

/** Polls `path` until at least `count` records satisfy `pred`; returns the records then. */
export async function waitForRecords(
  path: string | (() => string | undefined),
  pred: (r: TranscriptRecord) => boolean,
  opts: { timeoutMs?: number; count?: number; what?: string } = {},
): Promise<TranscriptRecord[]> {
  const { timeoutMs = 30_000, count = 1 } = opts;
  let p: string | undefined;
  let records: TranscriptRecord[] = [];
  return pollUntil(
    () => {
      p = typeof path === "function" ? path() : path;
      records = p ? readRecords(p) : [];
      return records.filter(pred).length >= count && records;
    },
    () => `${opts.what ?? "a record"} in ${p}. Records: [${records.map((r) => (r.subtype ? `${r.type}/${r.subtype}` : r.type)).join(", ")}]`,
    timeoutMs,
  );
}

/** `<session-dir>/subagents/agent-*.jsonl` paths of a session, sorted. */
export function subagentFiles(projectDir: string, sessionId: string): string[] {
  const dir = join(projectDir, sessionId, "subagents");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(dir, f));
}

/** Top-level `*.jsonl` files of a project folder, oldest first by first-record timestamp. */
export function sessionFiles(projectDir: string): string[] {
  if (!existsSync(projectDir)) return [];
  return readdirSync(projectDir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(projectDir, f));
}

/**
 * Defensive accessors for transcript records. The format is internal to Claude Code and changes
 * between versions, so nothing here assumes a field exists or has the expected type.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function timestampOf(record: Json): number | undefined {
  const raw = record.timestamp;
  if (typeof raw !== "string") return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The text of a message's content: a string, or the `text` blocks of an array, joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const block of asArray(content)) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") {
      text += text ? `\n${block.text}` : block.text;
    }
  }
  return text;
}

/** Extracts `<tag>value</tag>` from CLI-generated pseudo-XML text. */
export function tagValue(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end).trim();
}

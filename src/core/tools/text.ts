/** Bytes ↔ text for the tools, and what counts as a binary file (a NUL in the first 8 KB). */
const SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

// ignoreBOM keeps a byte-order mark in the text, so a file written back keeps it too.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Keeps the end of a long output (where errors are), and says how much was dropped. */
export function tail(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  return { text: `[… ${text.length - maxChars} earlier characters dropped …]\n${text.slice(-maxChars)}`, truncated: true };
}

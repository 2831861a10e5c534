/**
 * What a command prints, made safe to show in the user's terminal: the sequences that act on the
 * terminal or the machine rather than colour text are removed. VS Code's terminal honours OSC 52
 * (it writes the clipboard: the next paste runs the command's choice), OSC 8 links (text that
 * shows one address and opens another), titles, clear-screen and reset, cursor jumps that redraw
 * earlier lines (Arcadia's own header), private modes (bracketed paste, mouse reporting), and
 * device-control strings. Kept: SGR colours and styles, and what progress bars use (erase in
 * line, cursor up/down/forward/back/column). Streaming: a sequence cut between two chunks is held
 * until its end comes (at most MAX_PENDING characters, then shown as inert text).
 */

const ESC = "\x1b";
/** CSI final bytes that are kept: colours (m), erase in line (K), cursor up/down/forward/back/column. */
const KEPT_CSI = new Set(["m", "K", "A", "B", "C", "D", "G"]);
/** Introducers of strings that run until ST (ESC \ or 0x9c), or BEL for OSC: OSC, DCS, SOS, PM, APC. */
const STRING_AFTER_ESC = new Set(["]", "P", "X", "^", "_"]);
const STRING_C1 = new Set(["\x9d", "\x90", "\x98", "\x9e", "\x9f"]);
/** A sequence longer than this without its end is no sequence a terminal should wait for. */
export const MAX_PENDING = 8192;

type Found = { end: number; keep: boolean } | "incomplete";

export class InertTerminalOutput {
  private pending = "";

  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = "";
    let out = "";
    let plainFrom = 0;
    for (let i = 0; i < text.length;) {
      const c = text[i] as string;
      if (c !== ESC && !isC1(c)) {
        i++;
        continue;
      }
      out += text.slice(plainFrom, i);
      const found = sequenceAt(text, i);
      if (found === "incomplete") {
        this.pending = text.slice(i);
        if (this.pending.length > MAX_PENDING) out += this.flush();
        return out;
      }
      if (found.keep) out += text.slice(i, found.end);
      i = plainFrom = found.end;
    }
    return out + text.slice(plainFrom);
  }

  /** What is held at the end (an unfinished sequence), as inert text: its introducer removed. */
  flush(): string {
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    const rest = this.pending.replace(/[\x1b\x80-\x9f\x07]/g, "");
    this.pending = "";
    return rest;
  }
}

function isC1(c: string): boolean {
  return c >= "\x80" && c <= "\x9f";
}

function sequenceAt(text: string, start: number): Found {
  const c = text[start] as string;
  if (c === ESC) {
    const next = text[start + 1];
    if (next === undefined) return "incomplete";
    if (next === "[") return csiAt(text, start + 2);
    if (STRING_AFTER_ESC.has(next)) return stringAt(text, start + 2, next === "]");
    // Two-byte escapes and charset designations (ESC ( B): intermediates, then a final byte.
    let i = start + 1;
    while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
    if (i >= text.length) return "incomplete";
    return { end: i + 1, keep: false };
  }
  if (c === "\x9b") return csiAt(text, start + 1);
  if (STRING_C1.has(c)) return stringAt(text, start + 1, c === "\x9d");
  return { end: start + 1, keep: false };
}

/** Parameters, intermediates, a final byte; kept only without a private marker and with a kept final. */
function csiAt(text: string, from: number): Found {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  const params = text.slice(from, i);
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  if (i >= text.length) return "incomplete";
  const final = text[i] as string;
  const code = final.charCodeAt(0);
  // Not a final byte: the sequence is broken; drop what came so far, show the rest.
  if (code < 0x40 || code > 0x7e) return { end: i, keep: false };
  return { end: i + 1, keep: KEPT_CSI.has(final) && !/^[<=>?]/.test(params) && i === from + params.length };
}

function stringAt(text: string, from: number, bellEnds: boolean): Found {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\x9c" || (bellEnds && c === "\x07")) return { end: i + 1, keep: false };
    if (c === ESC) {
      if (i + 1 >= text.length) return "incomplete";
      if (text[i + 1] === "\\") return { end: i + 2, keep: false };
    }
  }
  return "incomplete";
}

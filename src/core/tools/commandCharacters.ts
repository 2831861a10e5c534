/**
 * Characters a command line must not carry, because what runs would differ from what a person
 * read (in the approval, on the card, in an allow-list match):
 * - control characters (C0 except tab, DEL, C1): in a terminal, Ctrl-U / Ctrl-W / backspace / DEL
 *   erase what came before them, ESC sequences move the cursor and redraw, Ctrl-R searches the
 *   history; a newline (or carriage return) starts a second command after the one approved;
 * - U+2028 / U+2029 (line and paragraph separators): shown as line breaks, or not at all;
 * - bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C): reorder what is shown;
 * - zero-width and other invisible format characters (U+200B–U+200D, U+2060, U+FEFF, and every
 *   other Unicode "format" character, e.g. U+00AD or the U+E00xx tags): invisible, yet part of
 *   a word the shell runs.
 * Tab stays allowed: it is an ordinary separator, and visible as one.
 */

export interface ForbiddenCharacter {
  /** The character's code point as "U+XXXX". */
  codePoint: string;
  /** What it is, in words: "Ctrl-U", "newline", "bidi control RIGHT-TO-LEFT OVERRIDE". */
  name: string;
  /** 1-based, counted in characters (code points) of the command as the tool got it (trimmed). */
  position: number;
}

const NAMED: Record<number, string> = {
  0x00: "NUL",
  0x08: "backspace (Ctrl-H)",
  0x0a: "newline",
  0x0d: "carriage return",
  0x1b: "escape (ESC, starts a terminal escape sequence)",
  0x7f: "DEL (erases the character before it)",
  0x85: "next line (NEL)",
  0x2028: "line separator",
  0x2029: "paragraph separator",
  0x200b: "zero-width space",
  0x200c: "zero-width non-joiner",
  0x200d: "zero-width joiner",
  0x2060: "word joiner (zero-width)",
  0xfeff: "zero-width no-break space (BOM)",
  0x202a: "bidi control LEFT-TO-RIGHT EMBEDDING",
  0x202b: "bidi control RIGHT-TO-LEFT EMBEDDING",
  0x202c: "bidi control POP DIRECTIONAL FORMATTING",
  0x202d: "bidi control LEFT-TO-RIGHT OVERRIDE",
  0x202e: "bidi control RIGHT-TO-LEFT OVERRIDE",
  0x2066: "bidi control LEFT-TO-RIGHT ISOLATE",
  0x2067: "bidi control RIGHT-TO-LEFT ISOLATE",
  0x2068: "bidi control FIRST STRONG ISOLATE",
  0x2069: "bidi control POP DIRECTIONAL ISOLATE",
  0x200e: "bidi mark LEFT-TO-RIGHT MARK",
  0x200f: "bidi mark RIGHT-TO-LEFT MARK",
  0x061c: "bidi mark ARABIC LETTER MARK",
};

// Cc = C0, DEL, C1; Cf = format characters (bidi, zero-width, tags…); Zl / Zp = U+2028 / U+2029.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

function nameOf(cp: number): string {
  const named = NAMED[cp];
  if (named) return named;
  // Ctrl-A … Ctrl-_ : what a person would press to type it.
  if (cp < 0x20) return `control character Ctrl-${String.fromCharCode(cp + 0x40)}`;
  if (cp >= 0x80 && cp <= 0x9f) return "C1 control character";
  return "invisible format character";
}

/** The first character the command must not carry, or undefined when it has none. */
export function forbiddenCommandCharacter(command: string): ForbiddenCharacter | undefined {
  let position = 0;
  for (const ch of command) {
    position++;
    if (ch === "\t" || !FORBIDDEN.test(ch)) continue;
    const cp = ch.codePointAt(0) as number;
    return { codePoint: codePointLabel(cp), name: nameOf(cp), position };
  }
  return undefined;
}

/** Why the command is refused and what to do instead, for the agent. */
export function forbiddenCharacterMessage(found: ForbiddenCharacter): string {
  const lineBreak =
    found.name === "newline" ||
    found.name === "carriage return" ||
    found.name === "line separator" ||
    found.name === "paragraph separator" ||
    found.name === "next line (NEL)";
  const instead = lineBreak
    ? "Send one command per call (or join them on one line with && or ;, which the user then sees), or put a longer script in a file and run that file."
    : "Remove it and send the command as plain text; if a program really needs that character as data, produce it inside the command (e.g. printf " +
      "'\\033' or $'\\u202e') or put it in a file.";
  return (
    `The command was not run: it contains ${found.name} (${found.codePoint}) at character ${found.position} (counting from 1). ` +
    "Commands must not carry control, bidi or invisible characters: they can make what runs differ from what the user sees and approves. " +
    instead
  );
}

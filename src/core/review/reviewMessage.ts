/**
 * The one message that carries review comments to an agent, typed at its prompt. It is one line
 * that shows exactly what it says: file names, quoted lines (the agent's own text) and comments
 * go through visibleText, so no control, bidi or invisible character rides in them — an ESC
 * sequence in a file name could otherwise act as a keystroke in the CLI (Shift+Tab changes its
 * permission mode), a newline would submit half a message. Fixed words open and close it: a
 * message starting with `!`, `/` or `#` would be a shell command, a slash command or a memory
 * for Claude Code, and one ending in `\` would turn the Enter that submits it into a newline.
 */
import { visibleText } from "../util";

/** A quoted line longer than this is cut (the agent has the file; the quote only points). */
export const QUOTE_MAX = 160;

export interface ReviewMessageItem {
  /** As the agent knows it: relative to its folder when inside it. */
  file: string;
  /** 1-based first line, and how many lines the comment is on. */
  line: number;
  lineCount: number;
  /** The first commented line, as it read when commented. */
  quote: string;
  /** The reviewer's comments on these lines, oldest first. */
  comments: string[];
}

/** How every review message starts (the agents layer knows its prompt by it). */
export const REVIEW_MESSAGE_START = "Review comments on your changes";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Visible, and whole code points only: a lone surrogate (half an emoji, cut) becomes U+FFFD. */
function shown(text: string): string {
  return visibleText(text.replace(/\p{Cs}/gu, "\uFFFD"));
}

export function reviewMessage(items: readonly ReviewMessageItem[]): string {
  const count = items.reduce((n, item) => n + item.comments.length, 0);
  const parts = items.map((item, i) => {
    const where = item.lineCount > 1 ? `lines ${item.line}-${item.line + item.lineCount - 1}` : `line ${item.line}`;
    const quoted = item.lineCount > 1 ? "starting" : "which reads";
    const comments = item.comments.map((c) => shown(c.trim()) || "(empty comment)").join(" / ");
    return `[${i + 1}] ${shown(item.file)} ${where}, ${quoted} \`${quote(item.quote)}\`: ${comments}`;
  });
  const message = `${REVIEW_MESSAGE_START} (${count}): ${parts.join(" ")} Please address each comment, then say briefly what you changed for each.`;
  // visibleText makes every part visible; this guards the joins too (the terminal is the trust boundary).
  if (HIDDEN.test(message)) throw new Error("a review message would carry a hidden character");
  return message;
}

function quote(line: string): string {
  const points = [...line.trim()];
  return shown(points.length > QUOTE_MAX ? `${points.slice(0, QUOTE_MAX).join("")}…` : points.join(""));
}

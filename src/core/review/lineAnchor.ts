/**
 * Where a review comment sits, found again after the agent edits the file. A comment is anchored
 * by the text of its lines and up to three lines on each side, not by its line number alone:
 * the agent inserts and deletes lines above it, and the comment must follow its text.
 * "Changed" means the commented lines themselves are no longer there as they were: the agent
 * touched what the reviewer pointed at (the comment reads "addressed").
 */
import { createHash } from "node:crypto";

/** Lines each side kept to find the commented lines again when their text appears more than once. */
export const CONTEXT_LINES = 3;

/** A line longer than this is kept as its start and a hash (a minified file's line can be megabytes). */
const LONG_LINE = 500;

export interface LineAnchor {
  /** 0-based, where the commented lines start (as last located). */
  line: number;
  /** The commented lines' text (each through `lineKey`), at least one. */
  lines: string[];
  /** Up to CONTEXT_LINES lines before and after them. */
  before: string[];
  after: string[];
}

export type Located = { line: number; changed: boolean };

/** A file's text as lines, the way an editor numbers them (CRLF or LF). */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** A line as stored and compared: as it is, or (very long) its start, length and a hash of it all. */
export function lineKey(line: string): string {
  if (line.length <= LONG_LINE) return line;
  const hash = createHash("sha256").update(line).digest("hex").slice(0, 16);
  return `${line.slice(0, 200)}…[${line.length} characters, sha256 ${hash}]`;
}

/** The anchor of lines `start`..`end` (0-based, inclusive; clamped to the file) of `lines`. */
export function anchorAt(lines: readonly string[], start: number, end = start): LineAnchor {
  const last = Math.max(0, lines.length - 1);
  const from = clamp(start, 0, last);
  const to = clamp(Math.max(end, from), from, last);
  return {
    line: from,
    lines: lines.slice(from, to + 1).map(lineKey),
    before: lines.slice(Math.max(0, from - CONTEXT_LINES), from).map(lineKey),
    after: lines.slice(to + 1, to + 1 + CONTEXT_LINES).map(lineKey),
  };
}

/**
 * Where the anchored lines are in `now`, and whether they changed. Unchanged: the commented lines
 * are there, contiguous and equal, and either unique in the file or with at least one of their
 * neighbours still beside them (a bare `}` found elsewhere is not the commented one); of several
 * such places the one with the most neighbours kept, then the nearest. Changed: the best guess
 * of where they were (after the lines that stood before them, or before those after them).
 */
export function locate(anchor: LineAnchor, now: readonly string[]): Located {
  const keys = now.map(lineKey);
  const size = anchor.lines.length;
  let best: { line: number; score: number } | undefined;
  let found = 0;
  for (let i = 0; i + size <= keys.length; i++) {
    if (!matchesAt(keys, i, anchor.lines)) continue;
    found++;
    const score = contextScore(keys, i, size, anchor);
    if (!best || score > best.score || (score === best.score && Math.abs(i - anchor.line) < Math.abs(best.line - anchor.line))) best = { line: i, score };
  }
  const hasContext = anchor.before.length + anchor.after.length > 0;
  if (best && (best.score > 0 || found === 1 || !hasContext)) return { line: best.line, changed: false };
  return { line: guessLine(keys, anchor), changed: true };
}

function matchesAt(keys: readonly string[], at: number, lines: readonly string[]): boolean {
  for (let k = 0; k < lines.length; k++) if (keys[at + k] !== lines[k]) return false;
  return true;
}

/** How many of the anchor's neighbours are still beside the lines found at `at`. */
function contextScore(keys: readonly string[], at: number, size: number, anchor: LineAnchor): number {
  let score = 0;
  anchor.before.forEach((line, k) => {
    if (keys[at - anchor.before.length + k] === line) score++;
  });
  anchor.after.forEach((line, k) => {
    if (keys[at + size + k] === line) score++;
  });
  return score;
}

/** Where changed lines were: just after the run of lines before them, else just before the run after them, else as before. */
function guessLine(keys: readonly string[], anchor: LineAnchor): number {
  const last = Math.max(0, keys.length - 1);
  const near = (candidates: number[]) => candidates.sort((a, b) => Math.abs(a - anchor.line) - Math.abs(b - anchor.line))[0];
  if (anchor.before.length > 0) {
    const at = near(positionsOf(keys, anchor.before));
    if (at !== undefined) return clamp(at + anchor.before.length, 0, last);
  }
  if (anchor.after.length > 0) {
    const at = near(positionsOf(keys, anchor.after));
    if (at !== undefined) return clamp(at - anchor.lines.length, 0, last);
  }
  return clamp(anchor.line, 0, last);
}

function positionsOf(keys: readonly string[], run: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + run.length <= keys.length; i++) if (matchesAt(keys, i, run)) found.push(i);
  return found;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

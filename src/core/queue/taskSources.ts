/**
 * Tasks from what the user gives: one per paragraph of a text, or the unchecked items of a
 * Markdown task list (`- [ ] …`). Each comes back with where it was (its first line) and, when it
 * cannot be typed at an agent's prompt as it reads, why (the typed-text rule of core/launch), so
 * nothing the user wrote is dropped without a word: a bad task is named with its line and kept
 * for the user to fix. A task is one line at the prompt (a line break would submit a second
 * prompt), so a paragraph's or an item's wrapped lines are joined with a space.
 */
import { typedTextProblem } from "../launch";

export interface TaskDraft {
  /** As it would be typed. */
  text: string;
  /** 1-based line of the source where it starts. */
  line: number;
  /** Why it cannot be queued as it is; undefined when it can. */
  problem?: string;
}

export interface TaskSourceRead {
  drafts: TaskDraft[];
  /** Why there is nothing to queue at all (no paragraph, no unchecked item), else undefined. */
  nothing?: string;
}

const lines = (text: string) => text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);

function draft(text: string, line: number): TaskDraft {
  const problem = text === "" ? "An empty task: write what to ask." : typedTextProblem(text);
  return problem ? { text, line, problem } : { text, line };
}

/** Tasks one per paragraph (paragraphs are parted by blank lines). */
export function tasksFromParagraphs(text: string): TaskSourceRead {
  const drafts: TaskDraft[] = [];
  let current: string[] = [];
  let first = 0;
  const flush = () => {
    if (current.length > 0) drafts.push(draft(current.join(" "), first));
    current = [];
  };
  lines(text).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return flush();
    if (current.length === 0) first = i + 1;
    current.push(line);
  });
  flush();
  return drafts.length > 0 ? { drafts } : { drafts, nothing: "No task: write one task per paragraph (a blank line between two tasks)." };
}

/** What a problem says, with where it is, for a message listing the tasks that were not queued. */
export function draftProblemLine(d: TaskDraft): string {
  const quote = d.text.length > 50 ? `${d.text.slice(0, 49)}…` : d.text;
  return `Line ${d.line}${quote ? ` ("${quote}")` : ""}: ${d.problem ?? "ready"}`;
}

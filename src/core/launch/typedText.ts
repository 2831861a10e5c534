/**
 * Text typed at an agent's prompt for the user (a task, a follow-up, a race's task): refused
 * unless it is typed exactly as it reads. Control, bidi and invisible characters, line breaks and
 * runs of 4+ blanks would not show as they act (util/visibleText.ts): a line break submits a
 * second prompt nobody saw, an escape sequence is keys to the terminal. And a task is words, not
 * one of Claude Code's input modes: a leading `!` runs the rest as a shell command with no
 * permission prompt, `/` a slash command (a repository can define its own), `#` writes a memory;
 * a trailing `\` turns the Enter that submits it into a new line. Those stay for the terminal,
 * where the user types them themselves.
 */
import { visibleText } from "../util";

/** Claude Code's input modes, by the character that starts them. */
const MODES: Record<string, string> = { "!": "a shell command run without asking", "/": "a slash command", "#": "a memory to save" };

/** Why `text` cannot be typed at an agent's prompt as the user sees it, or undefined. */
export function typedTextProblem(text: string): string | undefined {
  if (text.trim() === "") return "Write what to ask: it is typed at the agent's prompt.";
  const shown = visibleText(text);
  if (shown !== text) {
    return `It would not be typed as you see it: ${shown} (control or invisible characters, a line break, or a run of 4+ blanks). Remove them.`;
  }
  const mode = MODES[text.trimStart()[0] ?? ""];
  if (mode) return `A task that starts with ${text.trimStart()[0]} would be ${mode} for Claude Code, not a task: start it with words.`;
  if (text.trimEnd().endsWith("\\")) return "A task that ends with \\ would not be submitted (the Enter after it makes a new line): remove it.";
  return undefined;
}

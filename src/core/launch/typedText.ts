/**
 * Text typed at an agent's prompt for the user (a task, a follow-up, a race's task): refused
 * unless it is typed exactly as it reads. Control, bidi and invisible characters, line breaks and
 * runs of 4+ blanks would not show as they act (util/visibleText.ts): a line break submits a
 * second prompt nobody saw, an escape sequence is keys to the terminal.
 */
import { visibleText } from "../util/visibleText";

/** Why `text` cannot be typed at an agent's prompt as the user sees it, or undefined. */
export function typedTextProblem(text: string): string | undefined {
  if (text.trim() === "") return "Write what to ask: it is typed at the agent's prompt.";
  const shown = visibleText(text);
  if (shown === text) return undefined;
  return `It would not be typed as you see it: ${shown} (control or invisible characters, a line break, or a run of 4+ blanks). Remove them.`;
}

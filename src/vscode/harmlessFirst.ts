/** The buttons of a modal question with something to lose, the harmless answer first: Enter never destroys. */
import type { MessageItem } from "vscode";

/**
 * VS Code's modal dialog makes its first button the default (Enter, and where focus starts), and
 * keeps the close affordance (Escape, "Cancel") apart at the end. So the answer that loses nothing
 * ("Keep") goes first, as an ordinary button, and the destructive ones after it: a reflexive Enter
 * after Pick or Remove… keeps the work (issue 33). The answer is the chosen item's `title`.
 */
export function harmlessFirst(harmless: string, ...others: string[]): MessageItem[] {
  return [{ title: harmless }, ...others.map((title) => ({ title }))];
}

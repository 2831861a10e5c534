/**
 * The check command (`arcadia.compare.check`) a race's Run checks and the queue's landing run:
 * read from the user's (application) setting only, never a workspace's — a repository cannot
 * choose what runs on the user's machine.
 */
import { vscode } from "../api";

/** The command, or null when the user set none. */
export function checkCommand(): string | null {
  const value = vscode.workspace.getConfiguration("arcadia").inspect<string>("compare.check")?.globalValue;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/**
 * Reading a task list file the user picked, with a message for each way it can fail that says
 * which file and what to do: missing, a folder, unreadable, too big to be a list of tasks, not
 * text. Nothing is read past the size limit and nothing is written.
 */
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { errorMessage, MB } from "../util";

/** A task list is a page of text; a file bigger than this is not one (a log, a dump). */
export const MAX_TASK_FILE_BYTES = 1 * MB;

export type TaskFileRead = { ok: true; text: string } | { ok: false; problem: string };

/** Why `path` could not be opened, in words (its own function: a test running as root cannot make a file it may not read). */
export function openProblem(path: string, err: unknown): string {
  const name = basename(path);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return `${name} is not there (${path}): pick the task list again.`;
  if (code === "EACCES" || code === "EPERM") return `${name} cannot be read: permission denied (${path}). Allow reading it, or pick another file.`;
  return `${name} cannot be read: ${errorMessage(err)}`;
}

export async function readTaskFile(path: string): Promise<TaskFileRead> {
  const name = basename(path);
  let handle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    return { ok: false, problem: openProblem(path, err) };
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { ok: false, problem: `${name} is a folder, not a task list: pick a Markdown file.` };
    if (!info.isFile()) return { ok: false, problem: `${name} is not a file: pick a Markdown file.` };
    if (info.size > MAX_TASK_FILE_BYTES)
      return { ok: false, problem: `${name} is ${(info.size / MB).toFixed(1)} MB: a task list is at most 1 MB. Pick the list itself.` };
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return { ok: false, problem: `${name} is not text (it holds binary data): pick a Markdown file.` };
    try {
      return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
    } catch {
      return { ok: false, problem: `${name} is not UTF-8 text: save it as UTF-8, then pick it again.` };
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR") return { ok: false, problem: `${name} is a folder, not a task list: pick a Markdown file.` };
    return { ok: false, problem: `${name} cannot be read: ${errorMessage(err)}` };
  } finally {
    await handle.close();
  }
}

/**
 * The setup's two ends on disk and in time: reading a repository's setup file from a new worktree
 * (only a plain file of the repository: never a link, which could lead anywhere, nor anything too
 * big to read through or not text), and what a finished run means for its task — a failure or a
 * hang (past `arcadia.worktree.setupTimeoutSeconds`) stops that task with the end of its output,
 * never the queue.
 */
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../util";
import { MAX_SETUP_FILE_BYTES, REPO_SETUP_FILE, type RepoSetupFile } from "./setupTrust";

export async function readRepoSetupFile(worktree: string): Promise<RepoSetupFile> {
  const folder = join(worktree, ".arcadia");
  const path = join(worktree, REPO_SETUP_FILE);
  try {
    const dir = await lstat(folder).catch(() => undefined);
    if (!dir) return undefined;
    if (!dir.isDirectory()) return { problem: `${REPO_SETUP_FILE} is not run: .arcadia is a link or a file, not a folder of the repository.` };
    const info = await lstat(path).catch(() => undefined);
    if (!info) return undefined;
    if (info.isSymbolicLink()) return { problem: `${REPO_SETUP_FILE} is not run: it is a link (it could lead anywhere); make it a file.` };
    if (!info.isFile()) return { problem: `${REPO_SETUP_FILE} is not run: it is not a file.` };
    if (info.size > MAX_SETUP_FILE_BYTES)
      return { problem: `${REPO_SETUP_FILE} is not run: it is ${Math.ceil(info.size / 1024)} KB, more than the 64 KB a person can read through first.` };
    const bytes = await readFile(path);
    if (bytes.includes(0)) return { problem: `${REPO_SETUP_FILE} is not run: it is not text.` };
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch (err) {
    return { problem: `${REPO_SETUP_FILE} is not run: it cannot be read (${errorMessage(err)}).` };
  }
}

export const DEFAULT_SETUP_TIMEOUT_S = 600;
const MIN_SETUP_TIMEOUT_S = 10;
const MAX_SETUP_TIMEOUT_S = 4 * 60 * 60;

/** `arcadia.worktree.setupTimeoutSeconds` in ms: a value out of range is taken to the nearest allowed, never refused. */
export function setupTimeoutMs(seconds: unknown): number {
  const s = typeof seconds === "number" && Number.isFinite(seconds) ? seconds : DEFAULT_SETUP_TIMEOUT_S;
  return Math.round(Math.min(MAX_SETUP_TIMEOUT_S, Math.max(MIN_SETUP_TIMEOUT_S, s)) * 1000);
}

/** How a setup run ended. */
export interface SetupEnd {
  exitCode: number | null;
  signal: string | null;
  /** Stopped by Arcadia past the timeout. */
  timedOut: boolean;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  durationMs: number;
}

const TAIL_LINES = 40;
const TAIL_CHARS = 8000;

/** The end of a long output, as a terminal's last screen: the error is there. */
export function outputTail(output: string): string {
  const lines = output.replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n");
  const tail = lines.slice(-TAIL_LINES).join("\n");
  const cut = tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail;
  return lines.length > TAIL_LINES && cut === tail ? `…\n${cut}` : cut;
}

/** Why the task stops after its setup (with the end of the output), or undefined when the worktree is ready. */
export function setupFailure(end: SetupEnd, timeoutMs: number): { problem: string; output: string } | undefined {
  const seconds = Math.max(1, Math.round(end.durationMs / 1000));
  const output = outputTail(end.output);
  if (end.timedOut)
    return {
      problem:
        `Its setup did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (arcadia.worktree.setupTimeoutSeconds): ` +
        "retry it, or raise the timeout.",
      output,
    };
  if (end.exitCode === 0) return undefined;
  const how = end.exitCode !== null ? `exit code ${end.exitCode}` : `stopped by ${end.signal ?? "a signal"}`;
  return { problem: `Its setup failed (${how}) after ${seconds} s: its output is below. Fix the setup, then retry the task.`, output };
}

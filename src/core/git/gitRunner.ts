/**
 * git as a child process: never a shell (arguments are argv), never waiting for a terminal
 * prompt, with a deadline, and without taking the index lock for reads (GIT_OPTIONAL_LOCKS=0), so
 * Arcadia's looks never fail an agent's own `git commit`. Output is plain bytes as text; callers
 * use `-z` forms so no path is quoted or split. Started from a small helper process (gitHost.ts),
 * so starting it never holds the extension host's event loop.
 */
import { GitHost } from "./gitHost";

/** One helper for the whole process, started on the first git run. */
const host = new GitHost();

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  timeoutMs?: number;
  /** Extra environment (e.g. GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 256 * 1024 * 1024;

/** Runs git in `cwd`; resolves with its exit code whatever it is (a spawn failure is code -1). */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...options.env };
  return host.run({ cwd, args, env, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT });
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(" ")} failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim() || "no output"}`);
  }
}

/** Runs git and returns its output; any exit but 0 throws a GitError saying what git said. */
export async function git(cwd: string, args: readonly string[], options?: GitOptions): Promise<string> {
  const result = await runGit(cwd, args, options);
  if (result.code !== 0) throw new GitError(args, result);
  return result.stdout;
}

/** `-z` output split into its fields (the trailing NUL gives no empty field). */
export function nulFields(output: string): string[] {
  const fields = output.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

/** git's version as [major, minor], or undefined when git cannot be run. */
export async function gitVersion(): Promise<[number, number] | undefined> {
  const result = await runGit(process.cwd(), ["version"]);
  const match = /git version (\d+)\.(\d+)/.exec(result.stdout);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

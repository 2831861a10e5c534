/**
 * Runs a worktree's setup command as a child process in the worktree, its output (stdout and
 * stderr as they came) kept for the task's details, and stops it past the timeout: the whole
 * process group (an `npm ci` leaves children), TERM first, KILL a few seconds later. Never throws:
 * a command that cannot start ends as a failure with why.
 */
import { spawn } from "node:child_process";
import type { SetupEnd } from "../../core/queue";
import { errorMessage } from "../../core/util";

/** Output kept from the end (the setup's tail is what is shown). */
const MAX_OUTPUT = 256 * 1024;
const KILL_AFTER_MS = 3000;

export function runSetupProcess(argv: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<SetupEnd> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = "";
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.length > MAX_OUTPUT) output = output.slice(-MAX_OUTPUT);
    };
    const [command, ...args] = argv;
    const child = spawn(command!, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // Already gone.
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      signal("SIGTERM");
      killTimer = setTimeout(() => signal("SIGKILL"), KILL_AFTER_MS);
    }, timeoutMs);
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const end = (exitCode: number | null, sig: string | null, extra = "") => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      resolve({ exitCode, signal: sig, timedOut, output: output + extra, durationMs: performance.now() - started });
    };
    child.on("error", (err) => end(127, null, `\n${argv[argv.length - 1] ?? "setup"} could not start: ${errorMessage(err)}`));
    child.on("close", (code, sig) => end(code, sig));
  });
}

/**
 * Where git is started from: a small helper process, not the extension host. Starting a child
 * copies the parent's page tables (fork), so its synchronous part grows with the parent's memory:
 * measured here, `execFile("git")` held the event loop 3 ms from a bare Node, 11 ms with 200 MB
 * more heap and 29–45 ms with 600 MB — an extension host's size. The helper (a bare Node, started
 * once, with an IPC channel) runs each git and sends back its exit code and output, so the host
 * only pays a message. If the helper cannot start or dies, calls fail over to a direct start.
 */
import { type ChildProcess, execFile } from "node:child_process";
import { holdOpen, spawnNodeHelper } from "../util";

export interface GitRun {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBuffer: number;
}

export interface GitRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The helper's whole program: run what it is sent, send back what git did. Plain JS, no imports of ours. */
const HELPER_SOURCE = `
const { execFile } = require("node:child_process");
process.on("message", (m) => {
  const options = { cwd: m.cwd, env: m.env, timeout: m.timeoutMs, maxBuffer: m.maxBuffer, windowsHide: true, encoding: "utf8" };
  execFile("git", m.args, options, (err, stdout, stderr) => {
    const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
    process.send({ id: m.id, code, stdout: String(stdout ?? ""), stderr: err && code === -1 && !stderr ? String(err.message) : String(stderr ?? "") });
  });
});
process.on("disconnect", () => process.exit(0));
`;

/** A direct start, in this process (the fallback, and what the helper itself does). */
export function runGitHere(run: GitRun): Promise<GitRunResult> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [...run.args],
      { cwd: run.cwd, env: run.env, timeout: run.timeoutMs, maxBuffer: run.maxBuffer, windowsHide: true, encoding: "utf8" },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
        resolve({ code, stdout, stderr: err && code === -1 && !stderr ? err.message : stderr });
      },
    );
  });
}

export class GitHost {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, (result: GitRunResult | undefined) => void>();
  private nextId = 1;
  private broken = false;

  /** Runs git in the helper (started on first use); a helper that fails means a direct start. */
  async run(run: GitRun): Promise<GitRunResult> {
    const child = this.broken ? undefined : this.helper();
    if (!child) return runGitHere(run);
    const id = this.nextId++;
    const answer = new Promise<GitRunResult | undefined>((resolve) => this.pending.set(id, resolve));
    holdOpen(child, true);
    try {
      child.send({ id, cwd: run.cwd, args: [...run.args], env: run.env, timeoutMs: run.timeoutMs, maxBuffer: run.maxBuffer });
    } catch {
      this.pending.delete(id);
      return runGitHere(run);
    }
    // Undefined: the helper went away with the call in flight; it is run here instead.
    return (await answer) ?? runGitHere(run);
  }

  /** The helper's pid while it runs (tests, the log). */
  get helperPid(): number | undefined {
    return this.child?.pid;
  }

  dispose(): void {
    this.broken = true;
    this.child?.kill();
    this.child = undefined;
    for (const resolve of this.pending.values()) resolve(undefined);
    this.pending.clear();
  }

  private helper(): ChildProcess | undefined {
    if (this.child) return this.child;
    try {
      const child = spawnNodeHelper(HELPER_SOURCE);
      child.on("message", (m: { id: number } & GitRunResult) => {
        const resolve = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (this.pending.size === 0) holdOpen(child, false);
        resolve?.({ code: m.code, stdout: m.stdout, stderr: m.stderr });
      });
      const gone = () => {
        if (this.child !== child) return;
        this.child = undefined;
        for (const resolve of this.pending.values()) resolve(undefined);
        this.pending.clear();
      };
      child.on("exit", gone);
      child.on("error", () => {
        gone();
        this.broken = true;
      });
      this.child = child;
      return child;
    } catch {
      this.broken = true;
      return undefined;
    }
  }
}

/**
 * Where execute_command's (and the checks') unsandboxed commands are started from on POSIX: a small
 * helper process, not the extension host, as git is (core/git/gitHost.ts). Starting a child forks
 * the parent, copying its page tables: its synchronous part grows with the parent's memory (3 ms
 * from a bare Node, 29–45 ms from an extension host's size, docs/platform-facts.md). At fifty agents,
 * one command a turn, the forks were the host's largest single cost. The helper (a bare Node, started
 * once per process and shared, with an IPC channel) starts each command as its own process group,
 * sends back its pid, its output as it comes, and how it ended; signals go to the group straight from
 * the host (same machine, same user). If the helper cannot start, the caller starts the command
 * itself; a helper that dies ends its commands (their groups killed), never leaves them running.
 */
import type { ChildProcess } from "node:child_process";
import { holdOpen, spawnNodeHelper } from "../util";

/** A command started somewhere: what the runner needs of it (a ChildProcess gives the same). */
export interface StartedCommand {
  /** Its pid once started (the leader of its own process group). */
  readonly pid: number | undefined;
  /** Resolves once it runs; rejects with why it could not start. */
  readonly spawned: Promise<void>;
  /** Its stdout and stderr interleaved as they come, decoded as UTF-8. */
  onOutput(listener: (chunk: string) => void): void;
  /** Once it has exited and its output is all told (code, or the signal that ended it). */
  onClose(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
}

/** A start request: the program, its arguments, where, with which environment. */
export interface CommandStart {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The helper's whole program: start what it is sent, each in a group of its own; tell what it does. Plain JS. */
const HELPER_SOURCE = `
const { spawn } = require("node:child_process");
const send = (m) => { try { process.send(m); } catch {} };
process.on("message", (m) => {
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    send({ id: m.id, type: "error", message: String((err && err.message) || err) });
    return;
  }
  let started = false;
  child.once("spawn", () => { started = true; send({ id: m.id, type: "spawn", pid: child.pid }); });
  child.once("error", (err) => { if (!started) send({ id: m.id, type: "error", message: err.message, code: err.code }); });
  const out = (chunk) => send({ id: m.id, type: "out", chunk });
  child.stdout.setEncoding("utf8").on("data", out);
  child.stderr.setEncoding("utf8").on("data", out);
  child.on("close", (code, signal) => { if (started) send({ id: m.id, type: "close", code, signal }); });
});
process.on("disconnect", () => process.exit(0));
`;

type HelperMessage =
  | { id: number; type: "spawn"; pid: number }
  | { id: number; type: "error"; message: string; code?: string }
  | { id: number; type: "out"; chunk: string }
  | { id: number; type: "close"; code: number | null; signal: NodeJS.Signals | null };

/** One command started by the helper, as the host sees it. */
class RemoteCommand implements StartedCommand {
  pid: number | undefined;
  readonly spawned: Promise<void>;
  private settle!: (err?: Error) => void;
  private output: ((chunk: string) => void)[] = [];
  private close: ((code: number | null, signal: NodeJS.Signals | null) => void)[] = [];
  /** How it ended, once it has: a listener added after (its close came in the same tick as its start) is told at once. */
  private end: [number | null, NodeJS.Signals | null] | undefined;

  constructor() {
    this.spawned = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve());
    });
    // A start that fails is told through `spawned`; nobody may be awaiting it yet.
    this.spawned.catch(() => undefined);
  }

  onOutput(listener: (chunk: string) => void): void {
    this.output.push(listener);
  }

  onClose(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    if (this.end) listener(...this.end);
    else this.close.push(listener);
  }

  /** What the helper said of it; true once it is over (closed, or never started). */
  told(m: HelperMessage): boolean {
    if (m.type === "spawn") {
      this.pid = m.pid;
      this.settle();
    } else if (m.type === "error") {
      this.settle(Object.assign(new Error(m.message), { code: m.code }));
      return true;
    } else if (m.type === "out") {
      for (const listener of this.output) listener(m.chunk);
    } else {
      this.ended(m.code, m.signal);
      return true;
    }
    return false;
  }

  /** It ended (or its helper went away: its group is killed, it ends as killed). */
  ended(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.end) return;
    this.end = [code, signal];
    for (const listener of this.close) listener(code, signal);
    this.close = [];
  }

  /** The helper went away before it was told to have started. */
  failed(message: string): void {
    this.settle(new Error(message));
  }
}

export class CommandHost {
  private child: ChildProcess | undefined;
  private readonly running = new Map<number, RemoteCommand>();
  private nextId = 1;
  private broken = false;

  /** Starts the command in the helper; undefined when there is no helper (start it here instead). */
  start(command: CommandStart): StartedCommand | undefined {
    const child = this.broken ? undefined : this.helper();
    if (!child) return undefined;
    const id = this.nextId++;
    const remote = new RemoteCommand();
    try {
      child.send({ id, file: command.file, args: [...command.args], cwd: command.cwd, env: command.env });
    } catch {
      return undefined;
    }
    this.running.set(id, remote);
    holdOpen(child, true);
    return remote;
  }

  /** The helper's pid while it runs (tests). */
  get helperPid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the helper; commands still running are killed. */
  dispose(): void {
    this.broken = true;
    // `gone` forgets the helper: kill the one it was.
    const child = this.child;
    this.gone(child);
    child?.kill();
  }

  /** The helper went away: what it ran is killed (no output can reach us any more) and ends. */
  private gone(child: ChildProcess | undefined): void {
    if (!child || this.child !== child) return;
    this.child = undefined;
    for (const remote of this.running.values()) {
      if (remote.pid === undefined) {
        remote.failed("the command helper went away before the command started");
        continue;
      }
      try {
        process.kill(-remote.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      remote.ended(null, "SIGKILL");
    }
    this.running.clear();
  }

  private helper(): ChildProcess | undefined {
    if (this.child) return this.child;
    try {
      const child = spawnNodeHelper(HELPER_SOURCE);
      child.on("message", (m: HelperMessage) => {
        const remote = this.running.get(m.id);
        if (!remote || !remote.told(m)) return;
        this.running.delete(m.id);
        if (this.running.size === 0) holdOpen(child, false);
      });
      child.on("exit", () => this.gone(child));
      child.on("error", () => {
        this.broken = true;
        this.gone(child);
      });
      this.child = child;
      return child;
    } catch {
      this.broken = true;
      return undefined;
    }
  }
}

let shared: CommandHost | undefined;

/** The process's one helper, started on first use (every runner shares it). */
export function sharedCommandHost(): CommandHost {
  shared ??= new CommandHost();
  return shared;
}

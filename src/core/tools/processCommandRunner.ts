/**
 * execute_command's commands as plain child processes: the user's shell with `-c <command>` (cmd
 * `/d /s /c` on Windows), never typed into an interactive shell. An interactive shell's line
 * editor would act on the command's bytes (Ctrl-U, Ctrl-W, DEL, Ctrl-R… turn an allow-listed
 * `echo x…` into any other command) and expand history (`!!`, `!-3`, `!?text?`); `-c` runs the
 * text as given. No stdin (a command waiting for input reads end-of-file instead of hanging).
 *
 * Each command is its own process group: Ctrl+C, Cancel and the timeout signal the whole group,
 * then kill it if it is still there after a grace period, so nothing it started lives on. Output
 * (stdout and stderr, interleaved as they come) accumulates in a buffer readable while it runs,
 * and goes to `onOutput` for whoever shows it (VS Code: the agent's commands terminal), with the
 * sequences that act on the terminal rather than colour text removed (inertTerminalOutput.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { linuxProcessGroup } from "../process";
import { closeSync } from "node:fs";
import { SECCOMP_FD, seccompDescriptor } from "../sandbox";
import { type CommandHost, sharedCommandHost, type StartedCommand } from "./commandHost";
import { InertTerminalOutput } from "./inertTerminalOutput";
import type { CommandEnd, CommandHandle, CommandRunner, PartialOutput, StartCommand } from "./ports";

/** Like a terminal's scrollback: the end is kept. */
const MAX_BUFFER_CHARS = 1024 * 1024;
/** After Ctrl+C, how long the command may take to stop before its group is killed. */
export const INTERRUPT_GRACE_MS = 2000;

export interface ShellCommand {
  file: string;
  args: string[];
}

/** POSIX: $SHELL when it is one whose `-c` is non-interactive, else /bin/sh. Windows: cmd.exe. */
export function defaultShell(command: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): ShellCommand {
  if (platform === "win32") return { file: env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", `"${command}"`] };
  const shell = env.SHELL && /\/(ba|z|da|k|)sh$/.test(env.SHELL) ? env.SHELL : "/bin/sh";
  return { file: shell, args: ["-c", command] };
}

export interface ProcessCommandRunnerOptions {
  /** How a command line becomes a process (default: defaultShell). */
  shell?: (command: string) => ShellCommand;
  /** Output as it comes, for a live view. */
  onOutput?: (id: string, chunk: string) => void;
  onEnd?: (id: string, end: CommandEnd) => void;
  interruptGraceMs?: number;
  /**
   * Where an unsandboxed command starts on POSIX (default: the process's shared helper,
   * commandHost.ts: no fork of this process per command); `false`: here.
   */
  host?: CommandHost | false;
}

interface Running {
  child: { readonly pid: number | undefined };
  /** Started as `bwrap … -- command`: signals other than SIGKILL go past bubblewrap to the command. */
  sandboxed: boolean;
  output: string;
  closed: (end: CommandEnd) => void;
  ended: Promise<CommandEnd>;
  done: boolean;
  released: boolean;
  killTimer?: ReturnType<typeof setTimeout>;
}

export class ProcessCommandRunner implements CommandRunner {
  private readonly running = new Map<string, Running>();
  private nextId = 1;

  constructor(private readonly options: ProcessCommandRunnerOptions = {}) {}

  async start(request: StartCommand): Promise<CommandHandle> {
    const id = `proc-${this.nextId++}`;
    const program = request.argv ? { file: request.argv[0] as string, args: request.argv.slice(1) } : (this.options.shell ?? defaultShell)(request.command);
    const sandbox = request.sandbox;
    // The sandbox's stand-ins were made when it was launched; they are let go of once bubblewrap has exited.
    const release = () => sandbox?.release();
    const argv = sandbox ? [...sandbox.args, "--", ...sandbox.prefix, program.file, ...program.args] : program.args;
    // A sandbox reads its seccomp filter from fd 3 (SECCOMP_FD) as it starts: a descriptor of an
    // unlinked file it reads at once (seccompDescriptor.ts), else a pipe written below.
    const filterFd = sandbox ? seccompDescriptor(sandbox.seccomp) : undefined;
    // Unsandboxed on POSIX: from the helper. The sandbox reads fd 3, which only a start here can hand it.
    const host = !sandbox && process.platform !== "win32" ? (this.options.host ?? sharedCommandHost()) : false;
    const remote = host ? host.start({ file: program.file, args: program.args, cwd: request.cwd, env: process.env }) : undefined;
    let child: StartedCommand;
    if (remote) child = remote;
    else {
      let direct: ChildProcess;
      try {
        direct = spawn(sandbox ? sandbox.bwrap : program.file, argv, {
          cwd: request.cwd,
          detached: process.platform !== "win32",
          stdio: sandbox ? ["ignore", "pipe", "pipe", filterFd ?? "pipe"] : ["ignore", "pipe", "pipe"],
          // bubblewrap sets the command's whole environment itself (--clearenv): it gets nothing of ours.
          ...(sandbox ? { env: { PATH: "/usr/bin:/bin" } } : {}),
          windowsVerbatimArguments: process.platform === "win32" && !request.argv,
          windowsHide: true,
        });
      } finally {
        // bubblewrap has its own copy now (or never started).
        if (filterFd !== undefined) closeSync(filterFd);
      }
      if (sandbox && filterFd === undefined) {
        const filter = direct.stdio[SECCOMP_FD] as NodeJS.WritableStream & { on: (e: "error", f: () => void) => void };
        // Gone already when bubblewrap failed to start: its own error says why.
        filter.on("error", () => undefined);
        filter.end(Buffer.from(sandbox.seccomp));
      }
      child = startedHere(direct);
    }
    let closed!: (end: CommandEnd) => void;
    const ended = new Promise<CommandEnd>((resolve) => (closed = resolve));
    const run: Running = { child, sandboxed: sandbox !== undefined, output: "", closed, ended, done: false, released: false };
    this.running.set(id, run);
    // What reaches the user's terminal (and the buffer) with clipboard, link, title, clear-screen… sequences removed.
    const inert = new InertTerminalOutput();
    const append = (raw: string) => {
      const chunk = inert.push(raw);
      if (chunk === "") return;
      this.options.onOutput?.(id, chunk);
      if (run.released) return;
      run.output += chunk;
      if (run.output.length > MAX_BUFFER_CHARS) run.output = run.output.slice(-MAX_BUFFER_CHARS);
    };
    child.onOutput(append);
    try {
      await child.spawned;
    } catch (err) {
      this.running.delete(id);
      release();
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(`could not start ${sandbox ? `${sandbox.bwrap} (the sandbox)` : program.file}: ${message}`, { cause: err });
    }
    child.onClose((code, signal) => {
      clearTimeout(run.killTimer);
      append(inert.flush());
      // The sandbox's stand-ins go before the end is told: whoever looks next finds the folder as it was.
      release();
      this.finish(id, run, { kind: "exited", exitCode: code ?? (signal ? 128 + signalNumber(signal) : undefined) });
    });
    return { id, where: `process ${child.pid}`, ended };
  }

  /** Ctrl+C to the command's whole group; killed outright if it has not stopped after the grace. */
  interrupt(id: string): void {
    const run = this.running.get(id);
    if (!run || run.done) return;
    this.signalGroup(run, "SIGINT");
    clearTimeout(run.killTimer);
    run.killTimer = setTimeout(() => this.signalGroup(run, "SIGKILL"), this.options.interruptGraceMs ?? INTERRUPT_GRACE_MS);
    run.killTimer.unref?.();
  }

  partialOutput(id: string): PartialOutput {
    return { output: this.running.get(id)?.output ?? "", captured: true };
  }

  /** The output goes; a command still running stays known until it exits, so dispose can end it. */
  release(id: string): void {
    const run = this.running.get(id);
    if (!run) return;
    if (run.done) this.running.delete(id);
    run.released = true;
    run.output = "";
  }

  /** The terminal showing the command was closed while it ran: it dies, the call learns why. */
  closeTerminal(id: string): void {
    const run = this.running.get(id);
    if (!run || run.done) return;
    this.finish(id, run, { kind: "terminalClosed" });
    this.signalGroup(run, "SIGKILL");
  }

  whenEnded(id: string): Promise<void> {
    const run = this.running.get(id);
    return !run || run.done ? Promise.resolve() : run.ended.then(() => undefined);
  }

  /** Whether the command still runs. */
  isRunning(id: string): boolean {
    const run = this.running.get(id);
    return run !== undefined && !run.done;
  }

  /** Ends every command still running. */
  dispose(): void {
    for (const run of this.running.values()) this.signalGroup(run, "SIGKILL");
    this.running.clear();
  }

  private finish(id: string, run: Running, end: CommandEnd): void {
    if (run.done) return;
    run.done = true;
    if (run.released) this.running.delete(id);
    run.closed(end);
    this.options.onEnd?.(id, end);
  }

  private signalGroup(run: Running, signal: NodeJS.Signals): void {
    const pid = run.child.pid;
    if (pid === undefined) return;
    if (run.sandboxed && signal !== "SIGKILL" && process.platform === "linux") {
      // bubblewrap has no handler: it would die of the signal and tear the sandbox down at once.
      for (const member of linuxProcessGroup(pid)) if (member !== pid) this.kill(member, signal);
      return;
    }
    this.kill(process.platform === "win32" ? pid : -pid, signal);
  }

  private kill(pid: number, signal: NodeJS.Signals): void {
    try {
      // A negative pid is the process group (POSIX); Windows has no groups: the process itself.
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** A child started in this process, as the runner follows it. */
function startedHere(child: ChildProcess): StartedCommand {
  return {
    get pid() {
      return child.pid;
    },
    spawned: new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    }),
    onOutput(listener) {
      child.stdout!.setEncoding("utf8").on("data", listener);
      child.stderr!.setEncoding("utf8").on("data", listener);
    },
    onClose(listener) {
      child.on("close", listener);
    },
  };
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}

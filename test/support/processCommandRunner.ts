/**
 * CommandRunner on plain Node: each command really runs (`sh -c`) in its own process group, its
 * stdout and stderr accumulate in a buffer readable while it runs, `interrupt` sends SIGINT to the
 * group (what Ctrl+C does in a terminal). `closeTerminal` plays a user closing the terminal
 * mid-command. Used by the unit tests, the bench and the rig's MCP sidecar in place of VS Code's
 * terminals.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { CommandEnd, CommandHandle, CommandRunner, PartialOutput, StartCommand } from "../../src/core/tools/ports";

/** Like a terminal's scrollback: the end is kept. */
const MAX_BUFFER_CHARS = 1024 * 1024;

interface Running {
  child: ChildProcess;
  output: string;
  closed: (end: CommandEnd) => void;
  done: boolean;
  released: boolean;
}

export class ProcessCommandRunner implements CommandRunner {
  private readonly running = new Map<string, Running>();
  private nextId = 1;
  /** Every command started, for tests to look at. */
  readonly started: StartCommand[] = [];
  private readonly ends = new Map<string, Promise<CommandEnd>>();

  async start(request: StartCommand): Promise<CommandHandle> {
    this.started.push(request);
    const id = `proc-${this.nextId++}`;
    const child = spawn("sh", ["-c", request.command], { cwd: request.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let closed!: (end: CommandEnd) => void;
    const ended = new Promise<CommandEnd>((resolve) => (closed = resolve));
    this.ends.set(id, ended);
    const run: Running = { child, output: "", closed, done: false, released: false };
    this.running.set(id, run);
    const append = (chunk: string) => {
      run.output += chunk;
      if (run.released) return;
      if (run.output.length > MAX_BUFFER_CHARS) run.output = run.output.slice(-MAX_BUFFER_CHARS);
    };
    child.stdout!.setEncoding("utf8").on("data", append);
    child.stderr!.setEncoding("utf8").on("data", append);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    child.on("close", (code, signal) => {
      run.done = true;
      if (run.released) this.running.delete(id);
      run.closed({ kind: "exited", exitCode: code ?? (signal ? 128 + signalNumber(signal) : undefined) });
    });
    return { id, where: `process ${child.pid}`, ended };
  }

  /** How a command ended (kept after release), e.g. to see that Cancel really interrupted it. */
  endOf(id: string): Promise<CommandEnd> | undefined {
    return this.ends.get(id);
  }

  interrupt(id: string): void {
    this.signalGroup(id, "SIGINT");
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

  /** The user closed the terminal while the command ran: it dies, the call learns why. */
  closeTerminal(id: string): void {
    const run = this.running.get(id);
    if (!run || run.done) return;
    run.done = true;
    run.closed({ kind: "terminalClosed" });
    this.signalGroup(id, "SIGKILL");
  }

  /** Ends every command still running (tests' and sidecars' clean-up). */
  dispose(): void {
    for (const id of this.running.keys()) this.signalGroup(id, "SIGKILL");
    this.running.clear();
  }

  private signalGroup(id: string, signal: NodeJS.Signals): void {
    const pid = this.running.get(id)?.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}

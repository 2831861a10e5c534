/**
 * execute_command's CommandRunner in VS Code: each command runs as a plain child process
 * (core/tools/processCommandRunner.ts: the user's shell with -c, its own process group, never a
 * line editor), and is SHOWN in the agent's own terminal ("Arcadia: Agent #1 commands"), a
 * Pseudoterminal that prints `$ <command>`, the output as it comes and how it ended. Ctrl+C typed
 * there interrupts the command; closing the terminal kills it (the call ends "terminal closed").
 * One terminal per agent, reused when idle; another one while it is busy.
 */
import { vscode } from "../api";
import { type OutputPty, outputPty } from "../outputPty";
import type { CommandEnd, CommandHandle, CommandRunner, PartialOutput, StartCommand } from "../../core/tools";
import { ProcessCommandRunner, terminalText } from "../../core/tools";
import { DisposableObject, errorMessage } from "../../core/util";

interface CommandTerminal {
  terminal: vscode.Terminal;
  agentId: string | undefined;
  /** Shows text in the terminal (kept until VS Code opens it: earlier writes would be dropped). */
  write: (text: string) => void;
  output: OutputPty;
  /** A command is starting or running in it: not reused until it ends. */
  busy: boolean;
  /** The running command's id, once it started (Ctrl+C and closing act on it). */
  commandId?: string;
  closed: boolean;
}

export interface CommandTerminalsOptions {
  /** The agent's name for the terminal's, e.g. "Agent #1". */
  agentLabel: (agentId: string | undefined) => string;
}

/** A terminal shows \r\n line ends; processes write \n. */
const forTerminal = (text: string) => text.replace(/\r?\n/g, "\r\n");

export class CommandTerminals extends DisposableObject implements CommandRunner {
  private readonly terminals: CommandTerminal[] = [];
  private readonly shownIn = new Map<string, CommandTerminal>();
  /** Disposed with this: every command still running ends (its terminals go with the window). */
  private readonly processes = this._register(
    new ProcessCommandRunner({
      onOutput: (id, chunk) => this.shownIn.get(id)?.write(forTerminal(chunk)),
      onEnd: (id, end) => this.ended(id, end),
    }),
  );

  constructor(private readonly options: CommandTerminalsOptions) {
    super();
  }

  async start(request: StartCommand): Promise<CommandHandle> {
    const shown = this.terminalFor(request.agentId);
    // Not shown: showing a terminal switches the bottom panel's tab away from Arcadia's cards,
    // where the command's row, Cancel and Complete are. It is in the terminal list, live.
    const where = request.sandbox ? " · in the sandbox: no network, home hidden" : "";
    shown.write(`\x1b[2m${forTerminal(request.cwd)}${where}\x1b[0m\r\n$ ${forTerminal(request.command)}\r\n`);
    shown.busy = true;
    try {
      const handle = await this.processes.start(request);
      if (shown.closed) this.processes.closeTerminal(handle.id); // closed while it started
      shown.commandId = handle.id;
      this.shownIn.set(handle.id, shown);
      // Output that came before the id was known is in the buffer: show it once.
      const early = this.processes.partialOutput(handle.id).output;
      if (early) shown.write(forTerminal(early));
      return { ...handle, where: shown.terminal.name };
    } catch (err) {
      shown.busy = false;
      shown.write(`\x1b[31m${errorMessage(err)}\x1b[0m\r\n\r\n`);
      throw err;
    }
  }

  interrupt(id: string): void {
    this.processes.interrupt(id);
  }

  partialOutput(id: string): PartialOutput {
    const partial = this.processes.partialOutput(id);
    return { output: terminalText(partial.output), captured: true };
  }

  release(id: string): void {
    this.processes.release(id);
  }

  whenEnded(id: string): Promise<void> {
    return this.processes.whenEnded(id);
  }

  /** The agent is gone: its command terminals go too (their calls were ended already). */
  closeAgentTerminals(agentId: string): void {
    for (const shown of this.terminals.filter((t) => t.agentId === agentId)) {
      this.closed(shown);
      shown.terminal.dispose();
    }
  }

  private ended(id: string, end: CommandEnd): void {
    const shown = this.shownIn.get(id);
    this.shownIn.delete(id);
    if (!shown) return;
    shown.busy = false;
    shown.commandId = undefined;
    if (end.kind === "exited") shown.write(`\x1b[2m[exited${end.exitCode === undefined ? "" : ` with code ${end.exitCode}`}]\x1b[0m\r\n\r\n`);
  }

  /** The agent's idle terminal, or a new one. */
  private terminalFor(agentId: string | undefined): CommandTerminal {
    const idle = this.terminals.find((t) => t.agentId === agentId && !t.closed && !t.busy);
    if (idle) return idle;
    const label = this.options.agentLabel(agentId);
    const taken = this.terminals.filter((t) => t.agentId === agentId).length;
    const output = outputPty(`Commands ${label} runs through Arcadia's execute_command. Ctrl+C stops the running one.`, {
      close: () => this.closed(shown),
      ctrlC: () => shown.commandId && this.processes.interrupt(shown.commandId),
    });
    // `terminal` is set just below: the pseudoterminal's callbacks need `shown` first.
    const shown = { agentId, write: output.write, output, busy: false, closed: false } as CommandTerminal;
    const { pty } = output;
    shown.terminal = vscode.window.createTerminal({
      name: `Arcadia: ${label} commands${taken ? ` (${taken + 1})` : ""}`,
      pty,
      iconPath: new vscode.ThemeIcon("terminal"),
      // Commands of an agent are not the user's: do not bring them back after a reload.
      isTransient: true,
    });
    this.terminals.push(shown);
    return shown;
  }

  /** Closed by the user (or with its agent): the command it shows dies, the call learns why. */
  private closed(shown: CommandTerminal): void {
    if (shown.closed) return;
    shown.closed = true;
    if (shown.commandId) this.processes.closeTerminal(shown.commandId);
    shown.output.dispose();
    this.terminals.splice(this.terminals.indexOf(shown), 1);
  }
}

/**
 * execute_command's CommandRunner on VS Code's terminals, through the shell-integration API.
 *
 * One terminal per agent ("Arcadia: Agent #1 commands"), reused when it is idle and in the right
 * folder, another one when it is busy. The command runs with `shellIntegration.executeCommand`;
 * its output is read from `execution.read()` into a per-command buffer (readable while it runs);
 * it ends with `onDidEndTerminalShellExecution` (exit code), or — the fallback for shells that
 * never send the end mark — when the output stream ends. Without shell integration (none after a
 * few seconds) the command is typed with `sendText` and the result says "output not captured".
 * A terminal closed mid-command ends the call with a clear error.
 */
import { vscode } from "../api";
import type { CommandEnd, CommandHandle, CommandRunner, PartialOutput, StartCommand } from "../../core/tools/ports";
import { terminalText } from "../../core/tools/terminalText";

const SHELL_INTEGRATION_WAIT_MS = 4000;
/** After the output stream ended, how long the end event may take to bring the exit code. */
const END_EVENT_GRACE_MS = 500;
/** Like a terminal's scrollback: the end is kept. */
const MAX_RAW_CHARS = 2 * 1024 * 1024;

interface AgentTerminal {
  terminal: vscode.Terminal;
  agentId: string | undefined;
  busy: boolean;
  /** No shell integration: what runs in it cannot be known, so it is never reused. */
  blind: boolean;
}

interface Command {
  slot: AgentTerminal;
  raw: string;
  captured: boolean;
  ended: boolean;
  released: boolean;
  execution?: vscode.TerminalShellExecution;
  /** The end event came (its exit code, possibly undefined). */
  endEvent?: { exitCode: number | undefined };
  streamDone: boolean;
  end: (end: CommandEnd) => void;
}

export interface TerminalCommandRunnerOptions {
  /** The agent's name for the terminal's, e.g. "Agent #1". */
  agentLabel: (agentId: string | undefined) => string;
}

export class TerminalCommandRunner implements CommandRunner, vscode.Disposable {
  private readonly slots: AgentTerminal[] = [];
  private readonly commands = new Map<string, Command>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private nextId = 1;

  constructor(private readonly options: TerminalCommandRunnerOptions) {
    this.subscriptions.push(
      vscode.window.onDidEndTerminalShellExecution((event) => {
        for (const command of this.commands.values()) {
          if (command.execution === event.execution) this.endEventCame(command, event.exitCode);
        }
      }),
      vscode.window.onDidCloseTerminal((terminal) => {
        for (const command of this.commands.values()) if (command.slot.terminal === terminal) this.finish(command, { kind: "terminalClosed" });
        const index = this.slots.findIndex((s) => s.terminal === terminal);
        if (index >= 0) this.slots.splice(index, 1);
      }),
    );
  }

  async start(request: StartCommand): Promise<CommandHandle> {
    const slot = this.slotFor(request);
    slot.busy = true;
    slot.terminal.show(true);
    const id = `terminal-command-${this.nextId++}`;
    let end!: (end: CommandEnd) => void;
    const ended = new Promise<CommandEnd>((resolve) => (end = resolve));
    const command: Command = { slot, raw: "", captured: false, ended: false, released: false, streamDone: false, end };
    this.commands.set(id, command);

    const integration = await waitForShellIntegration(slot.terminal, SHELL_INTEGRATION_WAIT_MS);
    if (command.ended) return { id, where: slot.terminal.name, ended }; // closed while we waited
    if (!integration) {
      slot.blind = true;
      slot.terminal.sendText(request.command, true);
      this.finish(command, { kind: "notCaptured" });
      return { id, where: slot.terminal.name, ended };
    }
    command.captured = true;
    const execution = integration.executeCommand(request.command);
    command.execution = execution;
    void this.readOutput(command, execution.read());
    return { id, where: slot.terminal.name, ended };
  }

  interrupt(id: string): void {
    const command = this.commands.get(id);
    if (command && !command.ended) command.slot.terminal.sendText("\x03", false);
  }

  partialOutput(id: string): PartialOutput {
    const command = this.commands.get(id);
    return { output: command ? terminalText(command.raw) : "", captured: command?.captured ?? false };
  }

  release(id: string): void {
    const command = this.commands.get(id);
    if (!command) return;
    command.released = true;
    command.raw = "";
    if (command.ended) this.commands.delete(id);
  }

  /** The agent is gone: its command terminals go too (their calls were ended already). */
  closeAgentTerminals(agentId: string): void {
    for (const slot of this.slots.filter((s) => s.agentId === agentId)) slot.terminal.dispose();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  /** The agent's idle terminal in that folder, or a new one. */
  private slotFor(request: StartCommand): AgentTerminal {
    const idle = this.slots.find((s) => s.agentId === request.agentId && !s.busy && !s.blind && s.terminal.exitStatus === undefined && sameFolder(s.terminal, request.cwd));
    if (idle) return idle;
    const label = this.options.agentLabel(request.agentId);
    const taken = this.slots.filter((s) => s.agentId === request.agentId).length;
    const terminal = vscode.window.createTerminal({
      name: `Arcadia: ${label} commands${taken ? ` (${taken + 1})` : ""}`,
      cwd: request.cwd,
      iconPath: new vscode.ThemeIcon("terminal"),
      // Commands of an agent are not the user's: do not bring them back after a reload.
      isTransient: true,
    });
    const slot: AgentTerminal = { terminal, agentId: request.agentId, busy: false, blind: false };
    this.slots.push(slot);
    return slot;
  }

  private async readOutput(command: Command, stream: AsyncIterable<string>): Promise<void> {
    try {
      for await (const data of stream) {
        if (command.released) continue;
        command.raw += data;
        if (command.raw.length > MAX_RAW_CHARS) command.raw = command.raw.slice(-MAX_RAW_CHARS);
      }
    } catch {
      // The terminal went away: onDidCloseTerminal ends the command.
    }
    command.streamDone = true;
    if (command.endEvent) this.finish(command, { kind: "exited", exitCode: command.endEvent.exitCode });
    // The end event normally comes with the stream's end; a shell that never sends its mark still ends the command.
    else setTimeout(() => this.finish(command, { kind: "exited", exitCode: command.endEvent?.exitCode }), END_EVENT_GRACE_MS);
  }

  /** The exit code is known; the output may still be on its way, so the stream's end (or a grace) finishes. */
  private endEventCame(command: Command, exitCode: number | undefined): void {
    command.endEvent = { exitCode };
    if (command.streamDone) this.finish(command, { kind: "exited", exitCode });
    else setTimeout(() => this.finish(command, { kind: "exited", exitCode }), END_EVENT_GRACE_MS);
  }

  private finish(command: Command, end: CommandEnd): void {
    if (command.ended) return;
    command.ended = true;
    command.slot.busy = false;
    command.end(end);
    for (const [id, c] of this.commands) if (c === command && c.released) this.commands.delete(id);
  }
}

function sameFolder(terminal: vscode.Terminal, cwd: string): boolean {
  const current = terminal.shellIntegration?.cwd;
  return current !== undefined && current.scheme === "file" && current.fsPath === cwd;
}

function waitForShellIntegration(terminal: vscode.Terminal, ms: number): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const done = (value: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      listener.dispose();
      closed.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => done(terminal.shellIntegration), ms);
    const listener = vscode.window.onDidChangeTerminalShellIntegration((e) => e.terminal === terminal && done(e.shellIntegration));
    const closed = vscode.window.onDidCloseTerminal((t) => t === terminal && done(undefined));
  });
}

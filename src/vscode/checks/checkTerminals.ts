/**
 * Where a race's check command runs and shows: a plain child process through the user's shell
 * (core/tools/processCommandRunner.ts: `<shell> -c`, its own process group, no input), its output
 * live in a terminal per race member ("Arcadia: check fix-title-2"), like a command you approved.
 * It runs the agents' code (their tests), so it runs in the sandbox (core/sandbox) with only the
 * member's worktree writable and no network unless arcadia.compare.checkNetwork allows it; the
 * terminal's first line says which (or why there is no sandbox: then it runs as before).
 * Closing that terminal stops the check (it then has no exit code). The terminal is not shown
 * when a check starts (the compare tab stays in front); "output" on the column shows it. It is made
 * in the panel whatever `terminal.integrated.defaultLocation` says: made in the editor area, VS Code
 * opens it as an editor in the active group — over the compare tab that ran the checks.
 */
import { vscode } from "../api";
import { outputPty } from "../outputPty";
import type { CheckRunner } from "../../core/races";
import { realpath } from "node:fs/promises";
import { BubblewrapSandbox, checkSandbox, type CommandSandbox, type SandboxLaunch } from "../../core/sandbox";
import { ProcessCommandRunner } from "../../core/tools";
import { sandboxFromSettings } from "../tools/sandboxSetting";
import { DisposableMap, DisposableObject, errorMessage } from "../../core/util";

/** A member's check terminal; disposing it closes the terminal. */
interface Shown extends vscode.Disposable {
  terminal: vscode.Terminal;
  write: (text: string) => void;
  runId?: string;
  closed: boolean;
}

const forTerminal = (text: string) => text.replace(/\r?\n/g, "\r\n");
/** Kept until VS Code opens the terminal (earlier writes would be lost), like a scrollback. */

export class CheckTerminals extends DisposableObject implements CheckRunner {
  /** Before the processes: disposed after them (newest first), so a check is killed, not told its terminal closed. */
  private readonly shown = this._register(new DisposableMap<string, Shown>());
  private readonly byRun = new Map<string, Shown>();
  private readonly processes = this._register(
    new ProcessCommandRunner({
      onOutput: (id, chunk) => this.byRun.get(id)?.write(forTerminal(chunk)),
      onEnd: (id, end) => {
        const shown = this.byRun.get(id);
        this.byRun.delete(id);
        this.processes.release(id);
        if (shown) shown.runId = undefined;
        if (shown && end.kind === "exited") shown.write(`\x1b[2m[exited${end.exitCode === undefined ? "" : ` with code ${end.exitCode}`}]\x1b[0m\r\n\r\n`);
      },
    }),
  );

  constructor(private readonly sandbox: CommandSandbox = new BubblewrapSandbox({ settings: sandboxFromSettings })) {
    super();
  }

  async start(request: { command: string; cwd: string; label: string }): Promise<{ ended: Promise<{ exitCode: number | null }> }> {
    const shown = this.terminalFor(request.label);
    let handle;
    try {
      const confined = await this.confine(request.cwd);
      shown.write(`\x1b[2m${forTerminal(request.cwd)} · ${confined.said}\x1b[0m\r\n$ ${forTerminal(request.command)}\r\n`);
      handle = await this.processes.start({ command: request.command, cwd: request.cwd, ...(confined.launch ? { sandbox: confined.launch } : {}) });
    } catch (err) {
      shown.write(`\x1b[31m${errorMessage(err)}\x1b[0m\r\n\r\n`);
      throw err;
    }
    // What it printed before its id was known is in the runner's buffer: shown once, then live.
    const early = this.processes.partialOutput(handle.id).output;
    if (early) shown.write(forTerminal(early));
    shown.runId = handle.id;
    this.byRun.set(handle.id, shown);
    if (shown.closed) this.processes.closeTerminal(handle.id);
    return { ended: handle.ended.then((end) => ({ exitCode: end.kind === "exited" ? (end.exitCode ?? null) : null })) };
  }

  /** The sandbox for a check in `cwd` (the member's worktree: the only folder it writes), or why there is none. */
  private async confine(cwd: string): Promise<{ launch?: SandboxLaunch; said: string }> {
    const network = vscode.workspace.getConfiguration("arcadia").get<boolean>("compare.checkNetwork", false) === true;
    const real = (path: string) => realpath(path).catch(() => path);
    const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).map((f) => real(f.uri.fsPath)));
    return checkSandbox(this.sandbox, { worktree: await real(cwd), folders, network });
  }

  /** Shows the member's check terminal; false when there is none (no check ran in this window). */
  show(label: string): boolean {
    const shown = this.shown.get(label);
    if (!shown || shown.closed) return false;
    shown.terminal.show(false);
    return true;
  }

  private terminalFor(label: string): Shown {
    const known = this.shown.get(label);
    if (known && !known.closed) return known;
    const output = outputPty(`The check command (arcadia.compare.check) in ${label}'s worktree. Ctrl+C stops it.`, {
      close: () => {
        shown.closed = true;
        // Closed by the user: gone already, and the next check opens a new one.
        if (this.shown.get(label) === shown) this.shown.deleteAndLeak(label);
        if (shown.runId) this.processes.closeTerminal(shown.runId);
        output.dispose();
      },
      ctrlC: () => shown.runId && this.processes.interrupt(shown.runId),
    });
    const shown = { write: output.write, closed: false, dispose: () => shown.terminal.dispose() } as Shown;
    const { pty } = output;
    shown.terminal = vscode.window.createTerminal({
      name: `Arcadia: check ${label}`,
      pty,
      iconPath: new vscode.ThemeIcon("beaker"),
      isTransient: true,
      location: vscode.TerminalLocation.Panel,
    });
    this.shown.set(label, shown);
    return shown;
  }
}

/** VS Code's terminals as the agent manager's TerminalHost. */
import { vscode } from "../api";
import type { PanelPresence as Presence } from "../panelPresence";
import type { Disposable, EndedCommand, LaunchSpec, TerminalHandle, TerminalHost } from "../../agents/ports";
import { shellCommandLine } from "../shellQuote";
import { combinedDisposable, Emitter } from "../../core/util";

/** What the terminals need of the panel: whether it is in front, and bringing it back. */
type PanelPresence = Pick<Presence, "visible" | "show">;

/** Renames run one at a time: each makes its terminal the active one, which another must not undo. */
let renames: Promise<unknown> = Promise.resolve();
/**
 * A run of renames (after a reload: every revived terminal at once) puts things back once, after
 * its last rename, as they were when it began: the terminal that was active, then the panel if it
 * was in front. Asked between two renames, the answers would be the first rename's own doing (its
 * terminal active, the panel hidden by it), and the run would leave the terminals in front.
 */
const run = { pending: 0, panelWasVisible: false, activeBefore: undefined as vscode.Terminal | undefined, shown: false };

/**
 * Renames `terminal`'s tab. VS Code renames only the active terminal
 * (`workbench.action.terminal.renameWithArg`), so it is made active for the moment, without taking
 * focus (which switches the bottom panel to the terminals). The rename happens only once the
 * terminal is seen active: never on another terminal.
 */
function renameTerminal(terminal: vscode.Terminal, name: string, panel: PanelPresence): Promise<void> {
  if (run.pending++ === 0) Object.assign(run, { panelWasVisible: panel.visible(), activeBefore: vscode.window.activeTerminal, shown: false });
  const renamed = renames.then(async () => {
    try {
      if (vscode.window.activeTerminal !== terminal) {
        run.shown = true;
        terminal.show(true);
      }
      if (!(await becameActive(terminal))) throw new Error(`its terminal did not become the active one; its tab keeps the name "${terminal.name}"`);
      await vscode.commands.executeCommand("workbench.action.terminal.renameWithArg", { name });
    } finally {
      if (--run.pending === 0 && run.shown) await putBack(panel);
    }
  });
  renames = renamed.catch(() => undefined);
  return renamed;
}

/** The end of a run of renames: the terminal active before it, then the panel, as they were. */
async function putBack(panel: PanelPresence): Promise<void> {
  const { activeBefore, panelWasVisible } = run;
  if (activeBefore && vscode.window.activeTerminal !== activeBefore) {
    activeBefore.show(true);
    await becameActive(activeBefore);
  }
  if (panelWasVisible) await panel.show();
}

/** Resolves true once `terminal` is the active terminal (at once if it is), false after 2 s. */
function becameActive(terminal: vscode.Terminal): Promise<boolean> {
  if (vscode.window.activeTerminal === terminal) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => (listener.dispose(), resolve(false)), 2000);
    const listener = vscode.window.onDidChangeActiveTerminal((active) => {
      if (active !== terminal) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(true);
    });
  });
}

/** What is kept of a command's output for its exit message. */
const OUTPUT_TAIL = 4096;

/**
 * The one gate before Arcadia types into a terminal (a task, review comments, a rebase request, a
 * race's follow-up all go through TerminalHandle.type): why not now, e.g. its agent is paused at
 * its budget. Refused, nothing is typed, the user is told why, and the caller's `type` rejects.
 */
export type TypingRefusal = (handle: TerminalHandle) => string | undefined;

/** Wraps each vscode.Terminal once, so the manager can compare handles by identity. */
class Handles {
  private readonly map = new WeakMap<vscode.Terminal, TerminalHandle>();
  /** A text typed and Enter pressed: its agent's card shows working before the CLI's status file does. */
  readonly typed = new Emitter<TerminalHandle>();

  constructor(
    private readonly panel: PanelPresence,
    private readonly typingRefusal: TypingRefusal = () => undefined,
  ) {}

  of(terminal: vscode.Terminal): TerminalHandle {
    let handle = this.map.get(terminal);
    if (!handle) {
      handle = {
        get name() {
          return terminal.name;
        },
        processId: async () => {
          try {
            return await terminal.processId;
          } catch {
            return undefined;
          }
        },
        show: (preserveFocus) => terminal.show(preserveFocus),
        run: (command, args) => terminal.sendText(shellCommandLine(command, args, vscode.env.shell), true),
        // Text and Enter apart: a TUI reads a burst ending in Enter as a paste (a new line, not a submit).
        type: async (text) => {
          const refusal = this.typingRefusal(handle!);
          if (refusal !== undefined) {
            void vscode.window.showWarningMessage(`Arcadia: ${refusal}`);
            throw new Error(refusal);
          }
          terminal.sendText(text, false);
          await new Promise((resolve) => setTimeout(resolve, 200));
          terminal.sendText("\r", false);
          this.typed.fire(handle!);
        },
        rename: (name) => renameTerminal(terminal, name, this.panel),
        dispose: () => terminal.dispose(),
      };
      this.map.set(terminal, handle);
    }
    return handle;
  }
}

export class VscodeTerminalHost implements TerminalHost {
  private readonly handles: Handles;

  constructor(panel: PanelPresence, typingRefusal?: TypingRefusal) {
    this.handles = new Handles(panel, typingRefusal);
  }

  launch(spec: LaunchSpec): TerminalHandle {
    // A shell, not `claude` as the terminal's process: when claude exits the terminal stays, with
    // its output, and the user can start it again.
    const terminal = vscode.window.createTerminal({
      name: spec.name,
      cwd: spec.cwd,
      iconPath: new vscode.ThemeIcon("sparkle"),
      ...(spec.env ? { env: spec.env } : {}),
    });
    terminal.show();
    terminal.sendText(shellCommandLine(spec.command, spec.args, vscode.env.shell), true);
    return this.handles.of(terminal);
  }

  all(): readonly TerminalHandle[] {
    return vscode.window.terminals.map((t) => this.handles.of(t));
  }

  /** VS Code opens a new terminal (ours give no location) where the user's setting says. */
  opensInEditorArea(): boolean {
    return vscode.workspace.getConfiguration("terminal.integrated").get<string>("defaultLocation") === "editor";
  }

  active(): TerminalHandle | undefined {
    const terminal = vscode.window.activeTerminal;
    return terminal ? this.handles.of(terminal) : undefined;
  }

  onDidOpen(listener: (terminal: TerminalHandle) => void): Disposable {
    return vscode.window.onDidOpenTerminal((t) => listener(this.handles.of(t)));
  }

  onDidClose(listener: (terminal: TerminalHandle) => void): Disposable {
    return vscode.window.onDidCloseTerminal((t) => listener(this.handles.of(t)));
  }

  onDidChangeActive(listener: (terminal: TerminalHandle | undefined) => void): Disposable {
    return vscode.window.onDidChangeActiveTerminal((t) => listener(t ? this.handles.of(t) : undefined));
  }

  onDidType(listener: (terminal: TerminalHandle) => void): Disposable {
    return this.handles.typed.event(listener);
  }

  /**
   * Command lines that ended, from shell integration (bash, zsh, fish, pwsh; absent elsewhere, and
   * then the process monitor is the only witness). Output is read from the start of each command
   * that looks like claude (VS Code hands it only to a reader that asks at once), last 4 KB kept.
   */
  onDidEndCommand(listener: (terminal: TerminalHandle, ended: EndedCommand) => void): Disposable {
    const outputs = new WeakMap<vscode.TerminalShellExecution, { text: string; done: Promise<void> }>();
    const started = vscode.window.onDidStartTerminalShellExecution((e) => {
      if (!/claude|--session-id|--resume/.test(e.execution.commandLine.value)) return;
      const tail = { text: "", done: Promise.resolve() };
      tail.done = (async () => {
        try {
          for await (const data of e.execution.read()) tail.text = (tail.text + data).slice(-OUTPUT_TAIL);
        } catch {
          // The terminal went: what was read is what there is.
        }
      })();
      outputs.set(e.execution, tail);
    });
    const ended = vscode.window.onDidEndTerminalShellExecution(async (e) => {
      const tail = outputs.get(e.execution);
      // The output stream can end a moment after the command: its last line is the one we want.
      if (tail) await Promise.race([tail.done, new Promise((resolve) => setTimeout(resolve, 300))]);
      listener(this.handles.of(e.terminal), { commandLine: e.execution.commandLine.value, exitCode: e.exitCode, output: tail?.text ?? "" });
    });
    return combinedDisposable(started, ended);
  }
}

/** VS Code's terminals as the agent manager's TerminalHost. */
import { vscode } from "./api";
import type { Disposable, LaunchSpec, TerminalHandle, TerminalHost } from "../agents/ports";
import { shellCommandLine } from "./shellQuote";

/** Wraps each vscode.Terminal once, so the manager can compare handles by identity. */
class Handles {
  private readonly map = new WeakMap<vscode.Terminal, TerminalHandle>();
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
        dispose: () => terminal.dispose(),
      };
      this.map.set(terminal, handle);
    }
    return handle;
  }
}

export class VscodeTerminalHost implements TerminalHost {
  private readonly handles = new Handles();

  launch(spec: LaunchSpec): TerminalHandle {
    // A shell, not `claude` as the terminal's process: when claude exits the terminal stays, with
    // its output, and the user can start it again.
    const terminal = vscode.window.createTerminal({ name: spec.name, cwd: spec.cwd, iconPath: new vscode.ThemeIcon("sparkle") });
    terminal.show();
    terminal.sendText(shellCommandLine(spec.command, spec.args, vscode.env.shell), true);
    return this.handles.of(terminal);
  }

  all(): readonly TerminalHandle[] {
    return vscode.window.terminals.map((t) => this.handles.of(t));
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
}

/** Counts in the status bar — working / need you — that focus the panel when clicked. */
import { vscode } from "./api";
import { statusSummary } from "../agents/statusSummary";
import type { AgentView } from "../shared/protocol";
import { DisposableObject } from "../core/util/lifecycle";

export class AgentStatusBar extends DisposableObject {
  private readonly item = this._register(vscode.window.createStatusBarItem("arcadia.status", vscode.StatusBarAlignment.Left, 50));

  constructor(command: string) {
    super();
    this.item.name = "Arcadia agents";
    this.item.command = command;
  }

  update(agents: readonly AgentView[]): void {
    if (agents.length === 0) {
      this.item.hide();
      return;
    }
    const summary = statusSummary(agents);
    this.item.text = `$(sparkle) ${summary.text}`;
    this.item.tooltip = summary.tooltip;
    // What needs you stands out, as VS Code's own items do for warnings.
    this.item.backgroundColor = summary.needYou > 0 ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.show();
  }
}

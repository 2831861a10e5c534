/** Counts in the status bar — working / waiting for you — that focus the panel when clicked. */
import { vscode } from "./api";
import type { AgentView } from "../shared/protocol";

export class AgentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("arcadia.status", vscode.StatusBarAlignment.Left, 50);

  constructor(command: string) {
    this.item.name = "Arcadia agents";
    this.item.command = command;
  }

  update(agents: readonly AgentView[]): void {
    if (agents.length === 0) {
      this.item.hide();
      return;
    }
    const working = agents.filter((a) => a.status === "active").length;
    const waiting = agents.filter((a) => a.status === "waiting").length;
    this.item.text = `$(sparkle) ${working} working · ${waiting} waiting`;
    this.item.tooltip = `Arcadia: ${working} agent${working === 1 ? "" : "s"} working, ${waiting} waiting for you. Click to show the panel.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

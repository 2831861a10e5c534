/**
 * A usage or rate limit in the status bar: "Usage limit reached — resets at 14:00", naming the
 * agents it stopped, shown while any agent's session is stopped by one (sessionCards.ts).
 */
import { vscode } from "./api";
import type { SessionCards } from "../agents/sessionCards";
import { combinedDisposable } from "../core/util/lifecycle";

export function followLimits(cards: SessionCards, agentName: (id: string) => string | undefined, command: string): vscode.Disposable {
  const item = vscode.window.createStatusBarItem("arcadia.limit", vscode.StatusBarAlignment.Left, 49);
  item.name = "Arcadia usage limit";
  item.command = command;
  const update = () => {
    const limits = cards.limits();
    if (limits.length === 0) return item.hide();
    item.text = `$(watch) ${limits[0]!.message}`;
    item.tooltip = limits.map((l) => `${agentName(l.agentId) ?? "An agent"}: ${l.message}`).join("\n");
    item.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
    item.show();
  };
  return combinedDisposable(item, cards.onDidChange(update));
}

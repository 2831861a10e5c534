/** Counts in the status bar — working / need you, and a usage limit — that focus the panel when clicked. It follows the cards. */
import { vscode } from "../api";
import { statusSummary } from "../../agents/cards/statusSummary";
import type { CardStore } from "../../agents/cards/cardStore";
import { DisposableObject } from "../../core/util";

export class AgentStatusBar extends DisposableObject {
  private readonly item = this._register(vscode.window.createStatusBarItem("arcadia.status", vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly cards: Pick<CardStore, "cards" | "onDidChangeCard" | "onDidRemoveCard">,
    command: string,
    /** All agents' burn rate and today's spend against the day's cap (the budget), if any. */
    private readonly budgetTotal: () => string | undefined = () => undefined,
  ) {
    super();
    this.item.name = "Arcadia agents";
    this.item.command = command;
    this._register(cards.onDidChangeCard(() => this.update()));
    this._register(cards.onDidRemoveCard(() => this.update()));
  }

  private update(): void {
    const cards = this.cards.cards();
    if (cards.length === 0) {
      this.item.hide();
      return;
    }
    const summary = statusSummary(cards, this.budgetTotal());
    this.item.text = `$(sparkle) ${summary.text}`;
    this.item.tooltip = summary.tooltip;
    // What needs you stands out, as VS Code's own items do for warnings.
    this.item.backgroundColor = summary.needYou > 0 || summary.limited ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.show();
  }
}

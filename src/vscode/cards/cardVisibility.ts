/**
 * Whether the user can see an agent's card right now: the window has focus, the panel is visible,
 * and the webview says the card is on screen (at least half of it: `cardsVisible`). Notifications
 * are for the cards the user cannot see (src/agents/cards/attention.ts).
 */
import { vscode } from "../api";

export class CardVisibility {
  private onScreen = new Set<string>();

  constructor(private readonly panel: { visible(): boolean }) {}

  /** From the webview: the cards on screen now. */
  set(ids: readonly string[]): void {
    this.onScreen = new Set(ids);
  }

  seen(agentId: string): boolean {
    return vscode.window.state.focused && this.panel.visible() && this.onScreen.has(agentId);
  }
}

/**
 * "Arcadia: Go to Next Agent That Needs You": the next card (after the last one visited, in card
 * order) whose status is "needs you". Claude's own prompts and questions wait in the agent's
 * terminal: that terminal is focused. Arcadia's approvals are answered on the card: the panel is
 * shown with the card scrolled into view; a diff awaiting review is opened as well. Run again to
 * go on to the next one.
 */
import { vscode } from "../api";
import { nextNeedingYou } from "../../agents/cards/attention";
import type { AgentFacts } from "../../shared/protocol";

export const NEXT_NEEDS_YOU_COMMAND = "arcadia.nextNeedsYou";

export interface NextNeedsYouDeps {
  views(): AgentFacts[];
  focusTerminal(agentId: string): void;
  /** Scrolls the card into view in the panel (never takes keyboard focus from the editor). */
  revealCard(agentId: string): void;
  /** Opens what the first prompt of the agent is about (the diff of a write). */
  revealFirstPrompt(agentId: string): void;
}

export function registerNextNeedsYou(deps: NextNeedsYouDeps): vscode.Disposable {
  let lastVisited: string | undefined;
  return vscode.commands.registerCommand(NEXT_NEEDS_YOU_COMMAND, async () => {
    const agents = deps.views();
    const current = lastVisited ?? agents.find((a) => a.focused)?.id;
    const next = nextNeedingYou(agents, current);
    if (!next) {
      void vscode.window.showInformationMessage("No agent needs you right now.");
      return;
    }
    lastVisited = next.id;
    const kind = next.needsYou?.kind;
    if (kind === "permission" || kind === "question" || kind === "dialog") {
      deps.focusTerminal(next.id);
      return;
    }
    if (kind === "review") deps.revealFirstPrompt(next.id);
    await vscode.commands.executeCommand("arcadia.showPanel");
    deps.revealCard(next.id);
  });
}

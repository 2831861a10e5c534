/** The palette's commands and the views they belong to: launching, force-finishing calls, sessions, races, the queue, next agent that needs you. */
import { raceBudgetGroups } from "../agents/races/raceBudget";
import type { DisposableStore } from "../core/util";
import type { ArcadiaViewProvider } from "../vscode/panel/viewProvider";
import { vscode } from "../vscode/api";
import { registerBudgetCommands } from "../vscode/budget/budgetCommands";
import { registerForceFinishCommands } from "../vscode/tools/callPicker";
import { registerNextNeedsYou } from "../vscode/cards/nextNeedsYouCommand";
import { registerQueue } from "../vscode/queue/queue";
import { registerRaces } from "../vscode/races/races";
import { registerSessionsView } from "../vscode/sessions/sessionsView";
import { logSettingChanges } from "../vscode/settingChanges";
import { PANEL_VIEW_ID } from "../vscode/viewIds";
import type { AgentParts } from "./agentWiring";
import type { CardParts } from "./cardWiring";
import type { Late } from "./late";
import type { PanelParts } from "./panelWiring";
import type { ToolParts } from "./toolWiring";

type Parts = ToolParts & AgentParts & CardParts & PanelParts & { panel: Late<ArcadiaViewProvider> };

export function registerCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, parts: Parts, store: DisposableStore): void {
  const { manager, launcher, races, board, cards, prompts } = parts;
  const agentName = (id: string | undefined) => parts.agentName(id) ?? "unknown agent";
  store.add(launcher.register());
  store.add(registerForceFinishCommands(parts.tracker, agentName, log));
  store.add(registerBudgetCommands(parts.budget, manager, raceBudgetGroups(races)));
  store.add(registerSessionsView({ context, manager, launcher, races, figures: parts.sessionCards, log }));
  store.add(
    registerRaces({ context, book: races, manager, cards, launcher, bindings: parts.bindings, worktrees: parts.worktreeDeps, budget: parts.budget, log }),
  );
  const queueDeps = {
    context,
    book: parts.queue,
    status: parts.queueStatus,
    manager,
    cards,
    launcher,
    worktrees: parts.worktreeDeps,
    budget: parts.budget,
    races,
    bindings: parts.bindings,
    log,
  };
  store.add(registerQueue(queueDeps));
  store.add(vscode.commands.registerCommand("arcadia.showPanel", () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`)));
  store.add(vscode.commands.registerCommand("arcadia.showLog", () => log.show()));
  store.add(logSettingChanges(log));
  store.add(
    registerNextNeedsYou({
      views: () => cards.cards(),
      focusTerminal: (id) => manager.focus(id),
      revealCard: (id) => parts.panel.get().post({ type: "revealAgent", id }),
      revealFirstPrompt: (id) => void prompts.reveal(board.view(id).prompts[0]?.id ?? ""),
    }),
  );
}

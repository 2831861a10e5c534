/**
 * Everything a card shows and the one store that owns it: the live board (calls, prompts, and the
 * extras: shared files, worktrees, session figures, review comments, races) as a function of its
 * inputs, the card store that alone subscribes to every source and composes each card once per
 * tick, and then what follows the cards: the hook feed kept in step with each agent, what a gone
 * agent leaves behind cleared, the extras' own followers and the worktree commands.
 */
import { followAgentChanges } from "../agents/agent/agentChanges";
import { CardStore } from "../agents/cards/cardStore";
import { ClosedSpendTally } from "../agents/cards/closedSpend";
import { followHookTools } from "../agents/hooks/hookToolsSync";
import { LiveBoard } from "../agents/cards/liveBoard";
import { QueueBook } from "../agents/queue/queueBook";
import { QueueStatus } from "../agents/queue/queueStatus";
import { RaceBook } from "../agents/races/raceBook";
import { raceBudgetGroups } from "../agents/races/raceBudget";
import type { DisposableStore } from "../core/util";
import { vscode } from "../vscode/api";
import { createCardExtras } from "../vscode/cards/cardExtras";
import { workspaceQueueStore } from "../vscode/queue/queue";
import { workspaceRaceStore } from "../vscode/races/races";
import type { AgentParts } from "./agentWiring";
import type { ToolParts } from "./toolWiring";

export interface CardParts {
  board: LiveBoard;
  cards: CardStore;
  /** What the agents closed today had spent (saved in workspace state): the panel's total keeps it. */
  closedSpend: ClosedSpendTally;
  races: RaceBook;
  /** The task queue (saved in workspace state) and its one line for the panel. */
  queue: QueueBook;
  queueStatus: QueueStatus;
  worktreeDeps: ReturnType<ReturnType<typeof createCardExtras>["follow"]>["worktreeDeps"];
  /** The cards' session figures, for the Sessions view's rows. */
  sessionCards: ReturnType<typeof createCardExtras>["sessionCards"];
}

const hooksShowTools = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("liveToolsFromHooks", true);

export function wireCards(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, parts: ToolParts & AgentParts, store: DisposableStore): CardParts {
  const { manager, tracker, approvals, permissions, hookTools, collisions, stillRunning } = parts;
  const races = store.add(new RaceBook(workspaceRaceStore(context.workspaceState), (m) => log.warn(m)));
  const queue = store.add(new QueueBook(workspaceQueueStore(context.workspaceState), (m) => log.warn(m)));
  const queueStatus = store.add(new QueueStatus(queue));
  // A race's members share its cap (arcadia.budget.perRace, or the one set on the race).
  store.add(parts.budget.followGroups(raceBudgetGroups(races)));
  const extras = createCardExtras({
    manager,
    collisions,
    hookTools,
    races,
    log,
    workspaceState: context.workspaceState,
    budget: parts.budget,
    panel: parts.panelPresence,
  });
  store.add(extras.owned);
  const board = new LiveBoard({ calls: tracker, approvals, permissions, hooks: hookTools, extras: { ...extras.sources, stillRunning } });
  const cards = store.add(new CardStore({ agents: manager, board, hooks: hookTools, hooksShowTools, onError: (m) => log.error(m) }));
  // What follows the cards (each acts on a source; the store hears of it like any other change).
  const sessionOf = (id: string) => manager.agentInfo(id)?.sessionId;
  store.add(followHookTools({ feed: hookTools, onDidReadTranscript: manager.onDidReadTranscript, ...cardEvents(cards), sessionOf }));
  const closeCommandsTerminal = (id: string) => parts.tools.closeAgentTerminals(id);
  store.add(followAgentChanges({ onDidChange: manager.onDidChange, onDidChangeCard: cards.onDidChangeCard, tracker, permissions, closeCommandsTerminal }));
  const followed = extras.follow(cards);
  store.add(followed.owned);
  const closedSpend = store.add(new ClosedSpendTally(cards, workspaceClosedSpend(context.workspaceState)));
  return { board, cards, closedSpend, races, queue, queueStatus, worktreeDeps: followed.worktreeDeps, sessionCards: extras.sessionCards };
}

const CLOSED_SPEND_KEY = "arcadia.closedSpend";

function workspaceClosedSpend(state: vscode.Memento) {
  return { load: () => state.get<unknown>(CLOSED_SPEND_KEY), save: (value: unknown) => void state.update(CLOSED_SPEND_KEY, value) };
}

function cardEvents(cards: CardStore) {
  return { onDidChangeCard: cards.onDidChangeCard, onDidRemoveCard: cards.onDidRemoveCard };
}

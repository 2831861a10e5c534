/**
 * Everything a card shows and the one store that owns it: the live board (calls, prompts, and the
 * extras: shared files, worktrees, session figures, review comments, races) fed by the transcripts,
 * the hook feed kept in step with each agent, what a gone agent leaves behind cleared, and the
 * card store that composes each card and tells its changes.
 */
import { followAgentChanges } from "../agents/agent/agentChanges";
import { CardStore } from "../agents/cards/cardStore";
import { followHookTools } from "../agents/hooks/hookToolsSync";
import { LiveBoard } from "../agents/cards/liveBoard";
import { RaceBook } from "../agents/races/raceBook";
import type { DisposableStore } from "../core/util";
import type { vscode } from "../vscode/api";
import { createCardExtras } from "../vscode/cards/cardExtras";
import { workspaceRaceStore } from "../vscode/races/races";
import type { AgentParts } from "./agentWiring";
import type { ToolParts } from "./toolWiring";

export interface CardParts {
  board: LiveBoard;
  cards: CardStore;
  races: RaceBook;
  worktreeDeps: ReturnType<typeof createCardExtras>["worktreeDeps"];
}

export function wireCards(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, parts: ToolParts & AgentParts, store: DisposableStore): CardParts {
  const { manager, tracker, approvals, permissions, hookTools, collisions, stillRunning } = parts;
  const races = store.add(new RaceBook(workspaceRaceStore(context.workspaceState), (m) => log.warn(m)));
  const extras = createCardExtras({ manager, collisions, hookTools, races, log, workspaceState: context.workspaceState });
  store.add(extras.owned);
  const board = store.add(new LiveBoard(tracker, approvals, permissions, hookTools, Date.now, { ...extras.sources, stillRunning }));
  store.add(manager.onDidReadTranscript(({ agentId, events }) => board.transcriptEvents(agentId, events)));
  const sessionOf = (id: string) => manager.agentInfo(id)?.sessionId;
  store.add(followHookTools({ feed: hookTools, onDidReadTranscript: manager.onDidReadTranscript, onDidChange: manager.onDidChange, sessionOf }));
  const closeCommandsTerminal = (id: string) => parts.tools.closeAgentTerminals(id);
  store.add(followAgentChanges({ onDidChange: manager.onDidChange, tracker, permissions, closeCommandsTerminal }));
  const cards = store.add(new CardStore({ agents: manager, live: board, hooks: hookTools }));
  return { board, cards, races, worktreeDeps: extras.worktreeDeps };
}

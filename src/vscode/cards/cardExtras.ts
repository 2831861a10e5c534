/**
 * What a card shows beyond its calls and prompts, wired to the agents: files it shares with other
 * agents (the collision guard), the files it changed this session (from its transcript) and, for
 * a worktree agent, its branch and changes with the commands that act on them (review, merge,
 * remove), and the reviewer's comments on its Review (sent back to it).
 */
import { followCollisionAgents, rememberSessionEdits, sharedFileSource } from "../../agents/collisions/collisionCards";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { CardEvents, CardReader } from "../../agents/cards/cardStore";
import type { BudgetBook } from "../../agents/budget/budgetBook";
import type { CardExtras, RaceSource } from "../../agents/cards/liveBoard";
import type { Log } from "../../agents/ports";
import { followSessions, SessionCards } from "../../agents/sessions/sessionCards";
import { followBudget } from "../../agents/budget/budgetFollow";
import { followWorktreeAgents, WorktreeCards } from "../../agents/worktrees/worktreeCards";
import { CARD_TREE_FOLDERS, worktreeFollower } from "../../agents/worktrees/worktreeFollow";
import { HeadWatches } from "../../agents/worktrees/headWatches";
import { worktreeTreeWatch } from "../../agents/worktrees/worktreeWatch";
import { changeStats, gitFolders, ignoredAmong, ignoredNow, workTreePrint, worktreeOf } from "../../core/git";
import type { CollisionGuard } from "../../core/collisions";
import type { HookToolFeed } from "../../core/hooks";
import { combinedDisposable, type Disposable, safetyPollFor, systemClock } from "../../core/util";
import { ReviewOwners } from "../../agents/review/reviewOwners";
import { vscode } from "../api";
import { createReviewComments } from "../review/reviewComments";
import type { PanelPresence } from "../panelPresence";
import { type Deps as WorktreeDeps, offerRemovalOfLeftWorktree, registerWorktreeCommands, WORKTREE_COMMANDS } from "../worktrees/worktreeCommands";

export interface CardExtrasDeps {
  manager: AgentManager;
  collisions: CollisionGuard;
  hookTools: HookToolFeed;
  races: RaceSource;
  log: Log;
  /** Where review comments are kept (they survive a window reload). */
  workspaceState: vscode.Memento;
  /** Each agent's budget: it reads the session figures, the cards show it. */
  budget: BudgetBook;
  /** Arcadia's panel: a review comment is sent from its card, so adding one keeps it in front. */
  panel: PanelPresence;
}

export interface CardExtrasParts {
  sources: CardExtras;
  /** The cards' session figures (also one of `sources`), which the Sessions view's rows show too. */
  sessionCards: SessionCards;
  /** Everything it made that must go with the window. */
  owned: Disposable;
  /**
   * Once the card store exists (it composes with these sources): the extras follow the cards —
   * a card's change, a turn's end, a card removed — and the worktree commands act on them.
   * Returns what the worktree commands act with (a race's Review, Pick and removals reuse them).
   */
  follow(cards: CardEvents & CardReader): { owned: Disposable; worktreeDeps: WorktreeDeps };
}

export function createCardExtras(deps: CardExtrasDeps): CardExtrasParts {
  const { manager, collisions, hookTools, log } = deps;
  const warn = (m: string) => log.warn(m);
  // Each worktree agent's worktree, whatever changes it: one watch per worktree, the shared poll under it.
  const heads = new HeadWatches();
  const watchTree = worktreeTreeWatch(warn, CARD_TREE_FOLDERS, "card");
  const followWorktree = worktreeFollower({
    heads,
    gitFolders,
    watchTree,
    ignoredNow,
    ignoredAmong,
    poll: safetyPollFor(systemClock),
    print: workTreePrint,
    log: warn,
  });
  const worktrees = new WorktreeCards({ worktreeOf, changeStats, log: warn, heads, follow: followWorktree });
  const edits = new SessionCards((id) => manager.agentInfo(id)?.cwd);
  const owners = new ReviewOwners({
    agentIds: () => manager.agentIds(),
    worktreeOf: (id) => worktrees.info(id)?.path,
    editedFiles: (id) => edits.files(id),
  });
  const openReview = (id: string) => void vscode.commands.executeCommand(WORKTREE_COMMANDS.review, id);
  const reviews = createReviewComments({ manager, state: deps.workspaceState, owners, log, openReview, panel: deps.panel });
  const onDidHook = (listener: (agentId: string) => void) => hookTools.onDidChange(listener);
  const follow = (cards: CardEvents & CardReader) => {
    const commandDeps: WorktreeDeps = { manager, agents: cards, cards: worktrees, edits, log, reviewOpened: (id, files) => owners.opened(id, files) };
    const owned = combinedDisposable(
      followSessions(edits, { cards, onDidReadRecords: manager.onDidReadRecords }),
      deps.budget.follow(edits),
      followBudget(deps.budget, cards),
      followCollisionAgents(collisions, cards),
      rememberSessionEdits(collisions, edits, (m) => log.warn(m)),
      followWorktreeAgents(worktrees, {
        cards,
        agentCwd: (id) => manager.agentInfo(id)?.cwd,
        onDidHook,
        onWorktreeLeft: (info, name) => offerRemovalOfLeftWorktree(commandDeps, info, name),
      }),
      reviews.desk.followCards(cards),
      registerWorktreeCommands(commandDeps),
    );
    return { owned, worktreeDeps: commandDeps };
  };
  const sources: CardExtras = {
    shared: sharedFileSource(collisions, manager),
    worktrees,
    edits,
    reviews: reviews.desk,
    races: deps.races,
    budget: deps.budget,
  };
  return { sources, sessionCards: edits, owned: combinedDisposable(worktrees, edits, reviews.owned), follow };
}

/**
 * Races wired to VS Code: "Run on Several Agents…" (raceLaunch.ts → agents/races/raceStart.ts), the
 * compare tabs (compareTabs.ts, fed by agents/races/compareView.ts and agents/races/raceFigures.ts), their
 * actions (raceActions.ts, raceSettle.ts) and the check runs (checkTerminals.ts). Races are kept in
 * the workspace's state (RaceBook); a tab's figures are read again as its agents work, as its
 * members' worktrees change whatever changed them (agents/races/memberWatch.ts) and as its base
 * branch moves in the main checkout (agents/races/baseWatch.ts).
 */
import type { BudgetBook } from "../../agents/budget/budgetBook";
import { raceBudgetView } from "../../agents/races/raceBudget";
import { existsSync } from "node:fs";
import { combinedDisposable } from "../../core/util";
import { join } from "node:path";
import { vscode } from "../api";
import type { CardStore } from "../../agents/cards/cardStore";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { Log } from "../../agents/ports";
import type { RaceBook, RaceStore } from "../../agents/races/raceBook";
import { watchBase } from "../../agents/races/baseWatch";
import { memberTreeWatch, watchMembers } from "../../agents/races/memberWatch";
import { CompareFeed, type RaceNews } from "../../agents/races/compareFeed";
import { HeadWatches } from "../../agents/worktrees/headWatches";
import { compareView } from "../../agents/races/compareView";
import { RaceFigures } from "../../agents/races/raceFigures";
import { resumeRaces } from "../../agents/races/raceResume";
import { RaceRetries } from "../../agents/races/raceRetry";
import { startRace } from "../../agents/races/raceStart";
import { createWorktree, gitFolders, ignoredAmong, ignoredNow } from "../../core/git";
import { branchExists, CheckRuns, FolderSessions, memberChanges } from "../../core/races";
import type { Race } from "../../core/races";
import { projectDirFor } from "../../core/transcript";
import { errorMessage } from "../../core/util";
import { agentStarter } from "../launch/agentStarter";
import type { ClaudeLauncher } from "../launch/claudeLauncher";
import type { WorkspaceBindingStore } from "../agent/bindingStore";
import { CheckTerminals } from "../checks/checkTerminals";
import { COMPARE_PANEL_TYPE, CompareTabs } from "./compareTabs";
import { chooseLaunchFolder } from "../launch/folderChoice";
import { checkCommand } from "../checks/checkCommand";
import { raceAction } from "./raceActions";
import { askForRace, planRace, startSummary } from "./raceLaunch";
import type { Deps as WorktreeDeps } from "../worktrees/worktreeCommands";
import { offerToIgnore } from "../worktrees/worktreeLaunch";

const KEY = "arcadia.races";

export const RACE_COMMANDS = { run: "arcadia.runOnSeveralAgents", compare: "arcadia.compareRace", retry: "arcadia.retryRaceMember" } as const;

export function workspaceRaceStore(state: vscode.Memento): RaceStore {
  return { load: () => state.get<unknown>(KEY, []), save: (races) => Promise.resolve(state.update(KEY, races)) };
}

export interface RacesDeps {
  context: vscode.ExtensionContext;
  book: RaceBook;
  manager: AgentManager;
  /** The cards as shown: a column says what its agent's card says (needs you, compacting), whichever source changed it. */
  cards: Pick<CardStore, "cards" | "card" | "onDidChangeCard" | "onDidRemoveCard" | "onDidFinishTurn">;
  launcher: ClaudeLauncher;
  bindings: Pick<WorkspaceBindingStore, "load">;
  worktrees: WorktreeDeps;
  /** What a race's agents spent against its cap (the budget book). */
  budget: Pick<BudgetBook, "groupInput">;
  log: Log;
}

export function registerRaces(deps: RacesDeps): vscode.Disposable {
  const { book, manager, log } = deps;
  const figures = new RaceFigures({
    memberChanges,
    sessionsOf: (worktree) => new FolderSessions(projectDirFor(worktree), worktree),
    worktreeExists: (path) => existsSync(join(path, ".git")),
    branchExists,
    log: (m) => log.warn(m),
  });
  const checkTerminals = new CheckTerminals();
  const checks = new CheckRuns(checkTerminals);
  const actions = {
    ...{ book, manager, agents: deps.cards, worktrees: deps.worktrees, figures, checks, checkTerminals, log },
    // The compare tab's Retry is its line's: one command, one guard against a second start.
    retry: async (agentId: string) => void (await vscode.commands.executeCommand(RACE_COMMANDS.retry, agentId)),
  };
  const agentOf = (id: string | null) => (id ? deps.cards.card(id) : undefined);
  // What the forecasts depend on in the main checkouts (base refs, HEAD, index, the members' files), one watch per file.
  const heads = new HeadWatches();
  // Each member's worktree while its tab is open: the folders git does not ignore, a bounded number.
  const watchTree = memberTreeWatch((m) => log.warn(m));
  const news: RaceNews = {
    onDidChangeRace: book.onDidChangeRace,
    onDidChangeFigures: figures.onDidChange,
    onDidChangeCheck: checks.onDidChange,
    onDidChangeCard: (listener) =>
      combinedDisposable(
        deps.cards.onDidChangeCard((card) => listener(card.id)),
        deps.cards.onDidRemoveCard(listener),
      ),
    onDidWork: (listener) =>
      combinedDisposable(
        manager.onDidChange((change) => listener(change.type === "permissionPromptLeft" ? change.agentId : change.id)),
        deps.cards.onDidFinishTurn((card) => listener(card.id)),
        deps.worktrees.cards.onDidChange((agentIds) => agentIds.forEach(listener)),
      ),
    membersOf: (raceId) => book.get(raceId)?.members.flatMap((m) => m.agentId ?? []) ?? [],
    onDidMoveBase: (raceId, listener) =>
      watchBase({ heads, race: () => book.get(raceId), figures, gitFolders: (repo) => gitFolders(repo).catch(() => undefined) }, listener),
    onDidChangeWorktree: (raceId, listener, asking) =>
      watchMembers({ race: () => book.get(raceId), heads, gitFolders, watchTree, ignoredNow, ignoredAmong, log: (m) => log.warn(m) }, listener, asking),
  };
  const tabs = new CompareTabs({
    context: deps.context,
    view: (raceId) => {
      const race = book.get(raceId);
      if (!race) return null;
      return compareView(race, {
        agent: (m) => agentOf(m.agentId),
        figures: (m) => figures.of(race, m),
        checkRunningSince: (m) => checks.runningSince(`${race.id}/${m.name}`),
        checkCommand: checkCommand(),
        budget: raceBudgetView(deps.budget, race),
      });
    },
    title: (raceId) => book.get(raceId)?.task,
    opened: (raceId) => {
      const race = book.get(raceId);
      if (race) void figures.readNow(race);
    },
    // Its figures read again once things settle (what its agent did may have changed files and figures).
    reread: (raceId, agentId) => {
      const race = book.get(raceId);
      for (const m of race?.members ?? []) if (race && m.agentId === agentId) figures.request(race, m);
    },
    readMember: (raceId, name) => {
      const race = book.get(raceId);
      const member = race?.members.find((m) => m.name === name);
      if (race && member) void figures.readOne(race, member);
    },
    follow: (raceId, tab) => new CompareFeed(raceId, news, tab),
    act: (message) => raceAction(actions, message).catch((err) => void vscode.window.showErrorMessage(`Race: ${errorMessage(err)}`)),
    log,
  });
  // After a reload: a race whose start it cut goes on, once the agents' cards are back.
  const starter = { book, createWorktree, ...agentStarter(deps), log: (m: string) => log.warn(m), now: () => performance.now() };
  const hasAgent = (id: string) => deps.cards.card(id) !== undefined;
  // Only an agent bound again (its terminal came back): a terminal opened a moment before the reload
  // is often not revived by VS Code, and its reconnecting card would never be ready (seen in CI).
  const agentIn = (folder: string) => deps.bindings.load().find((b) => b.cwd === folder && manager.agentInfo(b.agentId) !== undefined)?.agentId;
  const retries = new RaceRetries({ ...starter, close: (id) => manager.close(id) });
  const resumeDeps = { ...starter, exists: existsSync, branchExists, hasAgent, agentIn, wallClock: Date.now };
  void manager.restored.then(() => resumeRaces(resumeDeps)).catch((err) => log.warn(`races after the reload: ${errorMessage(err)}`));
  return combinedDisposable(
    figures,
    { dispose: () => heads.dispose() },
    checkTerminals,
    checks,
    tabs,
    vscode.window.registerWebviewPanelSerializer(COMPARE_PANEL_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        const raceId = typeof state === "object" && state !== null ? (state as { raceId?: unknown }).raceId : undefined;
        if (typeof raceId === "string" && book.get(raceId)) {
          log.info(`compare tab of race ${book.get(raceId)!.task} back after a reload`);
          tabs.adopt(panel, raceId);
        } else {
          log.info("a compare tab came back for a race no longer known: closed");
          panel.dispose();
        }
      },
    }),
    vscode.commands.registerCommand(RACE_COMMANDS.run, () =>
      runOnSeveralAgents(deps, (id) => tabs.show(id)).catch((err) => void vscode.window.showErrorMessage(`Run on Several Agents: ${errorMessage(err)}`)),
    ),
    vscode.commands.registerCommand(RACE_COMMANDS.compare, (raceId?: string) => compareRace(book, raceId, (id) => tabs.show(id))),
    vscode.commands.registerCommand(RACE_COMMANDS.retry, (agentId: unknown) => typeof agentId === "string" && retryMember(retries, agentId)),
  );
}

/** A card's Retry: its member started again; said when that did not work either. */
async function retryMember(retries: RaceRetries, agentId: string): Promise<void> {
  try {
    const report = await retries.retry(agentId);
    if (report.problem) void vscode.window.showWarningMessage(`Race ${report.task}: ${report.name} did not start again: ${report.problem}.`);
  } catch (err) {
    void vscode.window.showErrorMessage(`Retry: ${errorMessage(err)}.`);
  }
}

const describe = (r: Race) => `${r.members.length} agents${r.picked ? ` · picked ${r.picked}` : ""}`;

async function compareRace(book: RaceBook, raceId: string | undefined, show: (id: string) => void): Promise<void> {
  if (raceId) return book.get(raceId) ? show(raceId) : undefined;
  const races = [...book.all()].reverse();
  if (races.length === 0) {
    void vscode.window.showInformationMessage(`No race yet: start one with "Arcadia: Run on Several Agents…".`);
    return;
  }
  const items = races.map((r) => ({ label: r.task, description: describe(r), detail: r.prompt, race: r }));
  const chosen = races.length === 1 ? races[0] : (await vscode.window.showQuickPick(items, { title: "Compare which race?" }))?.race;
  if (chosen) show(chosen.id);
}

async function runOnSeveralAgents(deps: RacesDeps, show: (raceId: string) => void): Promise<void> {
  const folder = await chooseLaunchFolder(deps.context.workspaceState, false);
  if (!folder) return;
  const answers = await askForRace();
  if (!answers) return;
  const planned = await planRace(folder, answers, deps.book.all());
  if (!planned) return;
  const { race, commit } = planned;
  const models = race.members.map((m) => m.model ?? "default").join(", ");
  deps.log.info(`race ${race.task}: ${race.members.length} agents on ${race.base} (${commit.slice(0, 12)}), models ${models}`);
  void offerToIgnore(race.repo, deps.context.workspaceState).catch((err) => deps.log.warn(`.gitignore offer: ${errorMessage(err)}`));
  const report = await startRace(
    {
      book: deps.book,
      createWorktree,
      ...agentStarter(deps),
      log: (m) => deps.log.warn(m),
      now: () => performance.now(),
    },
    race,
    commit,
  );
  deps.log.info(startSummary(race, report));
  const problems = report.members.filter((m) => m.problem);
  const compare = "Compare";
  const trouble = problems.map((m) => `${m.name}: ${m.problem}`).join("; ");
  const said = problems.length === 0 ? `Race ${race.task}: ${race.members.length} agents started, each asked the task.` : `Race ${race.task}: ${trouble}.`;
  const shown = problems.length === 0 ? vscode.window.showInformationMessage(said, compare) : vscode.window.showWarningMessage(said, compare);
  void shown.then((c) => c === compare && show(race.id));
}

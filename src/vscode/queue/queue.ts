/**
 * The queue wired to VS Code: the runner (agents/queue/queueRunner.ts) over the launcher, the
 * cards and the terminals, its setup ports (queueSetupPorts.ts), the follower of each task's agent,
 * and the commands — Queue Tasks… (queueInput.ts), pause / resume the queue, cancel / retry / mark
 * done a task, Land Finished Work… (queueLand.ts), the queue tab (queueTab.ts). After a reload the
 * queue resumes once the agents' cards are back (the model's restore rules). Nothing new starts
 * while a budget cap would be passed: the runner looks again whenever the budget changes.
 */
import { existsSync } from "node:fs";
import { vscode } from "../api";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { BudgetBook } from "../../agents/budget/budgetBook";
import type { CardStore } from "../../agents/cards/cardStore";
import type { Log } from "../../agents/ports";
import type { QueueBook, QueueStore } from "../../agents/queue/queueBook";
import type { RaceBook } from "../../agents/races/raceBook";
import { followQueue } from "../../agents/queue/queueFollow";
import { QueueRunner } from "../../agents/queue/queueRunner";
import { setUpWorktree } from "../../agents/queue/queueSetup";
import type { QueueStatus } from "../../agents/queue/queueStatus";
import { completeWorktree, createWorktree, isPlainRef, repositoryRoot } from "../../core/git";
import { addTasks, againQueueProblem, baseTip, newQueue, type NewTask, type Queue } from "../../core/queue";
import { branchExists, startingPoint, takenWorktreeNames } from "../../core/races";
import { combinedDisposable, errorMessage } from "../../core/util";
import type { WorkspaceBindingStore } from "../agent/bindingStore";
import { agentStarter } from "../launch/agentStarter";
import type { ClaudeLauncher } from "../launch/claudeLauncher";
import { chooseLaunchFolder } from "../launch/folderChoice";
import { CheckTerminals } from "../checks/checkTerminals";
import type { Deps as WorktreeDeps } from "../worktrees/worktreeCommands";
import { offerToIgnore } from "../worktrees/worktreeLaunch";
import { askAgain } from "./queueAgain";
import { askForTasks } from "./queueInput";
import { landFinishedWork } from "./queueLand";
import { vscodeSetupPorts } from "./queueSetupPorts";
import { queueTaskCommand, QUEUE_COMMANDS } from "./queueTaskCommands";
import { QueueTabs } from "./queueTab";

const KEY = "arcadia.queue";

export function workspaceQueueStore(state: vscode.Memento): QueueStore {
  return { load: () => state.get<unknown>(KEY), save: (queue) => Promise.resolve(state.update(KEY, queue ?? undefined)) };
}

export interface QueueDeps {
  context: vscode.ExtensionContext;
  book: QueueBook;
  status: QueueStatus;
  manager: AgentManager;
  cards: Pick<CardStore, "cards" | "card" | "onDidChangeCard" | "onDidRemoveCard" | "onDidFinishTurn">;
  launcher: ClaudeLauncher;
  worktrees: WorktreeDeps;
  budget: Pick<BudgetBook, "newAgentHold" | "onDidChange">;
  bindings: Pick<WorkspaceBindingStore, "load">;
  /** The races, for "Queue Again on Another Model…". */
  races: Pick<RaceBook, "all" | "get">;
  log: Log;
}

const parallelSetting = () => vscode.workspace.getConfiguration("arcadia").get<number>("queue.parallel", 3);

export function registerQueue(deps: QueueDeps): vscode.Disposable {
  const { book, log } = deps;
  for (const problem of book.problems) void vscode.window.showWarningMessage(`Queue: ${problem}`);
  const tell = (m: string) => void vscode.window.showWarningMessage(m);
  const runner = new QueueRunner({
    book,
    baseTip,
    takenNames: takenWorktreeNames,
    createWorktree,
    completeWorktree,
    setUp: (repo, worktree) =>
      setUpWorktree(
        vscodeSetupPorts(deps.context.globalState, (m) => log.info(m)),
        repo,
        worktree,
      ),
    ...agentStarter(deps),
    hasAgent: (agentId) => deps.cards.card(agentId) !== undefined,
    exists: existsSync,
    branchExists,
    budgetHold: () => deps.budget.newAgentHold(),
    gatesFound: (gates) => deps.status.gatesFound(gates),
    log: (m) => log.info(m),
    tell,
    now: () => performance.now() + performance.timeOrigin,
  });
  const pump = () => void runner.pump();
  const checks = new CheckTerminals();
  const tabs = new QueueTabs({
    context: deps.context,
    book,
    status: deps.status,
    cards: deps.cards,
    why: () => runner.why(),
    focus: (agentId) => deps.manager.focus(agentId),
    log,
  });
  const act =
    <A extends unknown[]>(name: string, run: (...args: A) => Promise<unknown>) =>
    (...args: A) =>
      run(...args).catch((err) => void vscode.window.showErrorMessage(`${name}: ${errorMessage(err)}`));
  // After a reload: once the agents' cards are back (the manager's restore, which activate() starts), each task picks up.
  const follow = followQueue({ book, cards: deps.cards, pump, log: (m) => log.info(m), tell, now: Date.now });
  void deps.manager.restored.then(async () => (await runner.resume(), await follow.settle()));
  return combinedDisposable(
    follow,
    // Spend changes often: only a queue with a task in line has anything to look at again.
    deps.budget.onDidChange(() => book.queue?.tasks.some((t) => t.state === "waiting") && pump()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("arcadia.queue.parallel") && book.queue) void book.update((q) => ({ ...q, parallel: parallelSetting() })).then(pump);
    }),
    checks,
    tabs,
    vscode.commands.registerCommand(
      QUEUE_COMMANDS.queueTasks,
      act("Queue Tasks", () => queueTasks(deps, runner)),
    ),
    vscode.commands.registerCommand(
      QUEUE_COMMANDS.again,
      act("Queue Again on Another Model", (target?: unknown) => queueAgain(deps, runner, target)),
    ),
    vscode.commands.registerCommand(
      QUEUE_COMMANDS.land,
      act("Land Finished Work", () => landFinishedWork({ book, worktrees: deps.worktrees, checks })),
    ),
    vscode.commands.registerCommand(QUEUE_COMMANDS.show, () => tabs.show()),
    ...queueTaskCommand({ book, manager: deps.manager, pump }),
  );
}

async function queueTasks(deps: QueueDeps, runner: QueueRunner): Promise<void> {
  const tasks = await askForTasks();
  if (!tasks || tasks.length === 0) return;
  const current = deps.book.queue;
  if (current) return enqueue(deps, runner, addTasks({ ...current, parallel: parallelSetting() }, tasks), tasks);
  const folder = await chooseLaunchFolder(deps.context.workspaceState, false);
  const repo = folder && (await repositoryRoot(folder));
  if (!repo) return void vscode.window.showWarningMessage(`Queue Tasks needs a git repository: ${folder ?? "this window"} is not in one.`);
  const from = await startingPoint(repo).catch(() => undefined);
  if (!from || !isPlainRef(from.base))
    return void vscode.window.showWarningMessage(
      `Queue Tasks starts every task from the branch checked out in ${repo}: check out a branch with a commit first.`,
    );
  void offerToIgnore(repo, deps.context.workspaceState).catch((err) => deps.log.warn(`.gitignore offer: ${errorMessage(err)}`));
  return enqueue(deps, runner, addTasks(newQueue(repo, from.base, parallelSetting()), tasks), tasks);
}

/** A race member's task once more on another model: into the queue of the race's repository, or a new one from the race's base. */
async function queueAgain(deps: QueueDeps, runner: QueueRunner, target?: unknown): Promise<void> {
  const asked = await askAgain(deps.races, target);
  if (!asked) return;
  const { race, task } = asked;
  const current = deps.book.queue;
  const problem = againQueueProblem(current, race);
  if (problem) return void vscode.window.showWarningMessage(`Queue Again on Another Model: ${problem}`);
  const queue = current ? { ...current, parallel: parallelSetting() } : newQueue(race.repo, race.base, parallelSetting());
  return enqueue(deps, runner, addTasks(queue, [task]), [task]);
}

async function enqueue(deps: QueueDeps, runner: QueueRunner, queue: Queue, tasks: readonly NewTask[]): Promise<void> {
  await deps.book.set(queue);
  deps.log.info(`queue: ${tasks.length} task(s) added on ${queue.base}, at most ${queue.parallel} at once`);
  await runner.pump();
  const why = runner.why();
  const open = "Open the Queue";
  // Why it waits, when that is news (paused, base gone, budget), not while it only waits on slots.
  const news = why && !why.startsWith("Nothing") && !/agents at work/.test(why) ? ` ${why}` : "";
  const said = `Queued ${tasks.length === 1 ? "1 task" : `${tasks.length} tasks`}: at most ${queue.parallel} agents at once.${news}`;
  void vscode.window.showInformationMessage(said, open).then((c) => c === open && void vscode.commands.executeCommand(QUEUE_COMMANDS.show));
}

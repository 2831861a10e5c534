/**
 * What a queue task's agent does, from its card (the card store), once its task is typed: asking
 * for permission (or a question, an approval) keeps its slot and shows under "needs you"; back at
 * work, it runs; its turn ended with its work committed, done, otherwise it needs the user; its
 * claude exited or its terminal closed, failed with its message. Before its task is typed what its
 * agent does is the start's business (its readiness), so nothing here touches a task not typed yet.
 */
import { agentNeedsYou, agentWorking, type QueueTask, taskFailed, taskOf, turnEnded, workCommitted } from "../../core/queue";
import { combinedDisposable, type Disposable, errorMessage, type Event } from "../../core/util";
import type { AgentFacts } from "../../shared/protocol";
import type { QueueBook } from "./queueBook";
import { taskWorktreePath } from "./queueRunner";

export interface FollowedCards {
  card(agentId: string): AgentFacts | undefined;
  readonly onDidChangeCard: Event<AgentFacts>;
  readonly onDidRemoveCard: Event<string>;
  readonly onDidFinishTurn: Event<AgentFacts>;
}

export interface QueueFollowDeps {
  book: QueueBook;
  cards: FollowedCards;
  /** Its work is committed (core/queue workCommitted); a port so tests can use real git or not. */
  committed?: (worktree: string, startCommit: string) => Promise<boolean>;
  /** A slot may have freed: start what can start. */
  pump(): void;
  log(message: string): void;
  tell(message: string): void;
  now(): number;
}

const NEEDS: Record<NonNullable<AgentFacts["needsYou"]>["kind"], string> = {
  permission: "Its agent asks for permission: answer it on its card.",
  approval: "Its agent waits for an approval: answer it on its card.",
  review: "Its agent waits for you to review a change.",
  question: "Its agent asked you a question.",
  dialog: "Its agent's terminal waits for you.",
};

/** The follower; `settle` looks at every running task's agent once (after a reload: a turn that ended while the window was closed fires no event). */
export interface QueueFollow extends Disposable {
  settle(): Promise<void>;
}

export function followQueue(deps: QueueFollowDeps): QueueFollow {
  const committed = deps.committed ?? workCommitted;
  /** Applies a change to the task of this agent, when it is typed and holds a slot; a refusal is logged, not thrown. */
  const onTask = async (agentId: string, act: (task: QueueTask) => Promise<void> | void) => {
    const queue = deps.book.queue;
    const id = deps.book.taskOfAgent(agentId);
    const task = id && queue ? taskOf(queue, id) : undefined;
    if (!task?.start?.typed || (task.state !== "starting" && task.state !== "running" && task.state !== "needsYou")) return;
    try {
      await act(task);
    } catch (err) {
      deps.log(`queue ${task.id}: ${errorMessage(err)}`);
    }
  };
  const failed = async (task: QueueTask, problem: string) => {
    await deps.book.update((q) => taskFailed(q, task.id, problem, deps.now()));
    deps.tell(`Queue: task ${task.id} stopped: ${problem}`);
    deps.pump();
  };
  const exited = (card: AgentFacts) => `Its claude exited${card.exitMessage ? `: ${card.exitMessage}` : ""}.`;
  const needsYou = (task: QueueTask, kind: keyof typeof NEEDS) =>
    task.state !== "needsYou" || task.problem !== NEEDS[kind] ? deps.book.update((q) => agentNeedsYou(q, task.id, NEEDS[kind])) : undefined;
  const turnEndedAt = (agentId: string) =>
    onTask(agentId, async (task) => {
      const queue = deps.book.queue!;
      const done = await committed(taskWorktreePath(queue, task), task.start!.commit).catch(() => false);
      // A short task can end before its start saw it taken: it ran, so it runs before it ends.
      await deps.book.update((q) => turnEnded(taskOf(q, task.id)!.state === "starting" ? agentWorking(q, task.id) : q, task.id, done, deps.now()));
      if (done) deps.pump();
    });
  const subscriptions = combinedDisposable(
    deps.cards.onDidChangeCard(
      (card) =>
        void onTask(card.id, async (task) => {
          if (card.status === "exited") return failed(task, exited(card));
          if (card.status === "needsYou" && card.needsYou) return void (await needsYou(task, card.needsYou.kind));
          if (card.status === "active" && task.state !== "running") await deps.book.update((q) => agentWorking(q, task.id));
          // Bound again after a reload, idle after a turn that ended while the window was closed: no finish event comes for it.
          if (card.status === "waiting" && card.lastTurn !== "none" && !card.reconnecting && task.state === "running") await turnEndedAt(card.id);
        }),
    ),
    deps.cards.onDidFinishTurn((card) => void turnEndedAt(card.id)),
    deps.cards.onDidRemoveCard(
      (agentId) => void onTask(agentId, (task) => failed(task, "Its agent's terminal was closed before it finished: retry it, or look at its worktree.")),
    ),
  );
  const settle = async () => {
    for (const task of deps.book.queue?.tasks ?? []) {
      const card = task.state === "running" && task.start?.agentId ? deps.cards.card(task.start.agentId) : undefined;
      if (!card || card.reconnecting) continue;
      if (card.status === "exited") await onTask(card.id, (t) => failed(t, exited(card)));
      else if (card.status === "needsYou" && card.needsYou) await onTask(card.id, async (t) => void (await needsYou(t, card.needsYou!.kind)));
      else if (card.status === "waiting" && card.lastTurn !== "none") await turnEndedAt(card.id);
    }
  };
  return { dispose: () => subscriptions.dispose(), settle };
}

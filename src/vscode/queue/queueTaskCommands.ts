/**
 * The queue's moves as commands (the palette, and the queue tab's buttons with a task's id):
 * pause and resume the queue, move a task in line, hold one, cancel (its agent's terminal closed:
 * a cancelled task frees its slot, so its agent must not work on beside the next one; its worktree
 * is kept), retry a failed or cancelled one, mark one done. Without an id the user picks the task
 * among those the move applies to. What the model refuses is said in its words.
 */
import { vscode } from "../api";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { QueueBook } from "../../agents/queue/queueBook";
import {
  cancelTask,
  markDone,
  moveTask,
  pauseQueue,
  type Queue,
  type QueueTask,
  resumeQueue,
  retryTask,
  taskLabel,
  taskOf,
  type TaskState,
} from "../../core/queue";
import { errorMessage } from "../../core/util";

export const QUEUE_COMMANDS = {
  queueTasks: "arcadia.queueTasks",
  again: "arcadia.queueAgainOnAnotherModel",
  land: "arcadia.landFinishedWork",
  show: "arcadia.showQueue",
  pause: "arcadia.pauseQueue",
  resume: "arcadia.resumeQueue",
  cancel: "arcadia.cancelQueueTask",
  retry: "arcadia.retryQueueTask",
  markDone: "arcadia.markQueueTaskDone",
  move: "arcadia.moveQueueTask",
} as const;

export interface TaskCommandDeps {
  book: QueueBook;
  manager: Pick<AgentManager, "close">;
  pump(): void;
}

type Move = (queue: Queue, id: string, now: number) => Queue;

const MOVES: { command: string; doing: string; states: TaskState[]; move: Move }[] = [
  { command: QUEUE_COMMANDS.cancel, doing: "Cancel", states: ["waiting", "held", "starting", "running", "needsYou"], move: cancelTask },
  { command: QUEUE_COMMANDS.retry, doing: "Retry", states: ["failed", "cancelled"], move: (q, id) => retryTask(q, id) },
  { command: QUEUE_COMMANDS.markDone, doing: "Mark done", states: ["running", "needsYou"], move: markDone },
];

async function pickTask(book: QueueBook, doing: string, states: TaskState[]): Promise<QueueTask | undefined> {
  const tasks = book.queue?.tasks.filter((t) => states.includes(t.state)) ?? [];
  if (tasks.length === 0) return void vscode.window.showInformationMessage(`${doing}: no task of the queue can be.`);
  const items = tasks.map((t) => ({ label: `${t.id} ${taskLabel(t)}`, description: t.state, detail: t.problem ?? undefined, task: t }));
  return (await vscode.window.showQuickPick(items, { title: `${doing} which task?` }))?.task;
}

export function queueTaskCommand(deps: TaskCommandDeps): vscode.Disposable[] {
  const { book } = deps;
  const apply = async (change: (q: Queue) => Queue) => {
    try {
      await book.update(change);
      deps.pump();
    } catch (err) {
      void vscode.window.showWarningMessage(`Queue: ${errorMessage(err)}`);
    }
  };
  return [
    vscode.commands.registerCommand(QUEUE_COMMANDS.pause, () => apply(pauseQueue)),
    vscode.commands.registerCommand(QUEUE_COMMANDS.resume, () => apply(resumeQueue)),
    vscode.commands.registerCommand(QUEUE_COMMANDS.move, (id: unknown, index: unknown) =>
      typeof id === "string" && typeof index === "number" ? apply((q) => moveTask(q, id, index)) : undefined,
    ),
    ...MOVES.map(({ command, doing, states, move }) =>
      vscode.commands.registerCommand(command, async (id?: unknown) => {
        const task = typeof id === "string" ? book.queue && taskOf(book.queue, id) : await pickTask(book, doing, states);
        if (!task) return;
        const agentId = task.start?.agentId;
        await apply((q) => move(q, task.id, Date.now()));
        // A cancelled task's agent stops: its slot is free, and the next task's agent takes it.
        if (command === QUEUE_COMMANDS.cancel && agentId && taskOf(book.queue!, task.id)?.state === "cancelled") deps.manager.close(agentId);
      }),
    ),
  ];
}

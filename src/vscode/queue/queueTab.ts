/**
 * The queue tab ("Queue"): one editor tab, the page `queue` of the webview bundle, sent the queue's
 * view (agents/queue/queueView.ts) whenever the queue, its line or one of its agents' cards changed
 * (at most once a tick), and each task's figures read from git when the queue changes, one of its
 * agents finishes a turn or its base branch moves (a landing, a commit:
 * agents/queue/queueBaseWatch.ts). Its buttons come back as the queue's commands, with the task's
 * id checked against the queue first. It comes back after a window reload (its serializer).
 */
import { vscode } from "../api";
import type { CardStore } from "../../agents/cards/cardStore";
import type { Log } from "../../agents/ports";
import { watchQueueBase } from "../../agents/queue/queueBaseWatch";
import type { QueueBook } from "../../agents/queue/queueBook";
import type { QueueStatus } from "../../agents/queue/queueStatus";
import { type TaskFigures, taskFigures, queueView } from "../../agents/queue/queueView";
import { HeadWatches } from "../../agents/worktrees/headWatches";
import { gitFolders } from "../../core/git";
import { moveTask, taskOf } from "../../core/queue";
import { combinedDisposable, type Disposable, DisposableObject, errorMessage } from "../../core/util";
import { QUEUE_PAGE, type QueueControl, type QueueHandlers, type QueueProtocol, type QueueTaskAction } from "../../shared/protocols/queue";
import { WebviewHost } from "../webviewHost";
import { QUEUE_COMMANDS } from "./queueTaskCommands";

export const QUEUE_PANEL_TYPE = "arcadia.queue";

export interface QueueTabsDeps {
  context: vscode.ExtensionContext;
  book: QueueBook;
  status: QueueStatus;
  cards: Pick<CardStore, "card" | "onDidChangeCard" | "onDidFinishTurn">;
  /** Why nothing new starts, as the runner last found. */
  why(): string | undefined;
  focus(agentId: string): void;
  log: Log;
}

const CONTROLS: Record<QueueControl, string> = {
  pause: QUEUE_COMMANDS.pause,
  resume: QUEUE_COMMANDS.resume,
  add: QUEUE_COMMANDS.queueTasks,
  land: QUEUE_COMMANDS.land,
};

export class QueueTabs extends DisposableObject {
  private open: { panel: vscode.WebviewPanel; host: WebviewHost<QueueProtocol>; follow: Disposable } | undefined;
  private readonly figures = new Map<string, TaskFigures>();
  private queued = false;
  private readonly heads = new HeadWatches();

  constructor(private readonly deps: QueueTabsDeps) {
    super();
    this._register({ dispose: () => this.heads.dispose() });
    this._register({ dispose: () => this.open?.panel.dispose() });
    this._register(
      vscode.window.registerWebviewPanelSerializer(QUEUE_PANEL_TYPE, {
        deserializeWebviewPanel: async (panel) => this.adopt(panel),
      }),
    );
  }

  show(): void {
    if (this.open) return this.open.panel.reveal(undefined, false);
    this.adopt(vscode.window.createWebviewPanel(QUEUE_PANEL_TYPE, "Queue", vscode.ViewColumn.Active, {}));
  }

  private adopt(panel: vscode.WebviewPanel): void {
    const { extensionUri } = this.deps.context;
    panel.title = "Queue";
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "icon.png");
    const host = new WebviewHost(panel, { page: QUEUE_PAGE, handlers: this.handlers(), log: this.deps.log, extensionUri, joinPath: vscode.Uri.joinPath });
    const isQueueAgent = (agentId: string) => this.deps.book.taskOfAgent(agentId) !== undefined;
    const follow = combinedDisposable(
      this.deps.book.onDidChange(() => (this.readFigures(), this.send())),
      this.deps.status.onDidChange(() => this.send()),
      this.deps.cards.onDidChangeCard((card) => isQueueAgent(card.id) && this.send()),
      this.deps.cards.onDidFinishTurn((card) => isQueueAgent(card.id) && this.readFigures()),
      watchQueueBase(
        {
          heads: this.heads,
          queue: () => this.deps.book.queue,
          onDidChange: this.deps.book.onDidChange,
          gitFolders: (repo) => gitFolders(repo).catch(() => undefined),
        },
        () => this.readFigures(),
      ),
    );
    host.onDidDispose(() => {
      follow.dispose();
      if (this.open?.host === host) this.open = undefined;
    });
    this.open?.panel.dispose();
    this.open = { panel, host, follow };
    this.readFigures();
  }

  private view() {
    return queueView(this.deps.book.queue, {
      line: this.deps.status.line(),
      why: this.deps.why(),
      agent: (id) => {
        const card = this.deps.cards.card(id);
        return card && { name: card.name, costUsd: card.usage?.costUsd ?? null };
      },
      figures: (id) => this.figures.get(id),
    });
  }

  /** At most one push a tick, however many changes came together. */
  private send(): void {
    if (this.queued || !this.open) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.open?.host.post({ type: "queueState", queue: this.view() });
    });
  }

  private readFigures(): void {
    const queue = this.deps.book.queue;
    if (!queue || !this.open) return;
    void Promise.all(
      queue.tasks.map(async (task) => {
        const figures = await taskFigures(queue, task).catch((err: unknown) => void this.deps.log.warn(`queue ${task.id}: ${errorMessage(err)}`));
        if (figures) this.figures.set(task.id, figures);
        else this.figures.delete(task.id);
      }),
    ).then(() => this.send());
  }

  private handlers(): QueueHandlers {
    return {
      queueReady: () => ({ type: "queueState", queue: this.view() }),
      queueTaskAction: (m) => this.taskAction(m.taskId, m.action),
      queueControl: (m) => void vscode.commands.executeCommand(CONTROLS[m.action]),
    };
  }

  private async taskAction(taskId: string, action: QueueTaskAction): Promise<void> {
    const queue = this.deps.book.queue;
    const task = queue && taskOf(queue, taskId);
    if (!queue || !task) return this.deps.log.warn(`ignored the queue tab's ${action} of a task not in the queue`);
    if (action === "focus") return task.start?.agentId ? this.deps.focus(task.start.agentId) : undefined;
    if (action === "moveUp" || action === "moveDown") {
      const inLine = queue.tasks.map((t, i) => ({ t, i })).filter(({ t }) => t.state === "waiting" || t.state === "held");
      const at = inLine.findIndex(({ t }) => t.id === taskId);
      const other = inLine[action === "moveUp" ? at - 1 : at + 1];
      if (at < 0 || !other) return;
      await this.deps.book.update((q) => moveTask(q, taskId, other.i)).catch((err) => void vscode.window.showWarningMessage(`Queue: ${errorMessage(err)}`));
      return;
    }
    const command = { cancel: QUEUE_COMMANDS.cancel, retry: QUEUE_COMMANDS.retry, markDone: QUEUE_COMMANDS.markDone }[action];
    await vscode.commands.executeCommand(command, taskId);
  }
}

/**
 * The queue tab's page: the queue's line and why it waits, Pause / Resume, Queue Tasks… and Land
 * Finished Work…, then each task in order — its words, state, agent, time, cost, files and
 * predicted merge — with the buttons that apply to it now (move up / down in line, cancel, retry,
 * mark done). Fed by the extension's queueState pushes; every button is a message the host checks.
 */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { useReducer } from "react";
import { formatElapsed } from "../../src/shared/elapsed";
import type { QueuePush, QueueTaskAction } from "../../src/shared/protocols/queue";
import type { QueueTaskView, QueueView } from "../../src/shared/queueViews";
import { onPush, post, request } from "./clients/queueClient";
import { useExtensionMessages } from "./useExtensionMessages";
import { useNow } from "./useNow";

interface QueueState {
  queue: QueueView | null;
  loaded: boolean;
}

const reduceQueue = (state: QueueState, message: QueuePush): QueueState => (message.type === "queueState" ? { queue: message.queue, loaded: true } : state);

const BUTTONS: { action: Exclude<QueueTaskAction, "focus">; label: string; can: keyof QueueTaskView["can"] }[] = [
  { action: "moveUp", label: "Up", can: "moveUp" },
  { action: "moveDown", label: "Down", can: "moveDown" },
  { action: "retry", label: "Retry", can: "retry" },
  { action: "markDone", label: "Mark done", can: "markDone" },
  { action: "cancel", label: "Cancel", can: "cancel" },
];

function TaskRow({ task, now }: { task: QueueTaskView; now: number }) {
  const time = task.startedAt === null ? null : formatElapsed(Math.max(0, (task.endedAt ?? now) - task.startedAt));
  return (
    <li className={`queue-task queue-task-${task.state}`} data-testid="queue-task" data-task={task.id} data-state={task.state}>
      <div className="queue-task-head">
        <span className="queue-task-state" data-testid="queue-task-state">
          {task.stateWords}
        </span>
        <span className="queue-task-text" data-testid="queue-task-text">
          {task.text}
        </span>
      </div>
      <div className="queue-task-facts">
        {task.agent && (
          <button
            type="button"
            className="queue-task-agent"
            data-testid="queue-task-agent"
            onClick={() => post({ type: "queueTaskAction", taskId: task.id, action: "focus" })}
          >
            {task.agent.name}
          </button>
        )}
        {task.model && <span data-testid="queue-task-model">on {task.model}</span>}
        {task.worktree && <span data-testid="queue-task-worktree">{task.worktree}</span>}
        {time && <span data-testid="queue-task-time">{time}</span>}
        {task.cost && <span data-testid="queue-task-cost">{task.cost}</span>}
        {task.files !== null && <span data-testid="queue-task-files">{task.files === 1 ? "1 file" : `${task.files} files`}</span>}
        {task.merge && <span data-testid="queue-task-merge">{task.merge}</span>}
      </div>
      {task.problem && (
        <p className="queue-task-problem" data-testid="queue-task-problem">
          {task.problem}
        </p>
      )}
      {task.output && (
        <pre className="queue-task-output" data-testid="queue-task-output">
          {task.output}
        </pre>
      )}
      <div className="queue-task-buttons">
        {BUTTONS.filter((b) => task.can[b.can]).map((b) => (
          <VSCodeButton
            key={b.action}
            appearance="secondary"
            data-testid={`queue-task-${b.action}`}
            onClick={() => post({ type: "queueTaskAction", taskId: task.id, action: b.action })}
          >
            {b.label}
          </VSCodeButton>
        ))}
      </div>
    </li>
  );
}

export function QueueApp() {
  const [state, dispatch] = useReducer(reduceQueue, { queue: null, loaded: false });
  useExtensionMessages(onPush, dispatch, () => request("queueReady", {}));
  // Ticks only while a task runs: a finished one shows its fixed time.
  const now = useNow(state.queue?.tasks.some((t) => t.startedAt !== null && t.endedAt === null) ?? false);
  const queue = state.queue;
  if (!queue)
    return (
      <div className="queue" data-testid="queue">
        <p className="queue-empty">{state.loaded ? "No queue yet: Queue Tasks… gives it tasks." : "Reading the queue…"}</p>
        {state.loaded && <VSCodeButton onClick={() => post({ type: "queueControl", action: "add" })}>Queue Tasks…</VSCodeButton>}
      </div>
    );
  return (
    <div className="queue" data-testid="queue">
      <header className="queue-head">
        <h1 className="queue-title" data-testid="queue-title">
          {queue.line}
        </h1>
        <p className="queue-meta">
          From <span className="queue-base">{queue.base}</span> · at most {queue.parallel} at once{queue.paused ? " · paused" : ""}
        </p>
        {queue.why && (
          <p className="queue-why" data-testid="queue-why">
            {queue.why}
          </p>
        )}
        <div className="queue-controls">
          <VSCodeButton data-testid="queue-pause" onClick={() => post({ type: "queueControl", action: queue.paused ? "resume" : "pause" })}>
            {queue.paused ? "Resume" : "Pause"}
          </VSCodeButton>
          <VSCodeButton data-testid="queue-add" appearance="secondary" onClick={() => post({ type: "queueControl", action: "add" })}>
            Queue Tasks…
          </VSCodeButton>
          <VSCodeButton data-testid="queue-land" appearance="secondary" onClick={() => post({ type: "queueControl", action: "land" })}>
            Land Finished Work…
          </VSCodeButton>
        </div>
      </header>
      <ol className="queue-tasks">
        {queue.tasks.map((task) => (
          <TaskRow key={task.id} task={task} now={now} />
        ))}
      </ol>
    </div>
  );
}

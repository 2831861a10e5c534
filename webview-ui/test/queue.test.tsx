import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { QueuePush } from "../../src/shared/protocols/queue";
import type { QueueTaskView, QueueView } from "../../src/shared/queueViews";
import { QueueApp } from "../src/QueueApp";
import { fakeVsCode, renderPanel, snapshot } from "./helpers";

const send = (message: QueuePush) => act(() => void window.dispatchEvent(new MessageEvent("message", { data: message })));

const none = { moveUp: false, moveDown: false, cancel: false, retry: false, markDone: false };

function task(id: string, overrides: Partial<QueueTaskView> = {}): QueueTaskView {
  return {
    id,
    text: `Task ${id}`,
    model: null,
    state: "waiting",
    stateWords: "waiting",
    agent: null,
    worktree: null,
    startedAt: null,
    endedAt: null,
    cost: null,
    files: null,
    merge: null,
    problem: null,
    output: null,
    can: { ...none, cancel: true },
    ...overrides,
  };
}

function queue(tasks: QueueTaskView[], overrides: Partial<QueueView> = {}): QueueView {
  return { line: "Queue: 2 waiting · 1 running · 1 done · 1 failed", base: "main", repo: "/repo", parallel: 2, paused: false, why: null, tasks, ...overrides };
}

const row = (id: string) => within(screen.getAllByTestId("queue-task").find((r) => r.dataset.task === id)!);

describe("the queue's line in the panel", () => {
  it("shows the queue on one line once there is one, opens the queue tab on a click, and goes when the queue does", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([]));
    expect(screen.queryByTestId("queue-line")).toBeNull();
    panel.send({ type: "queueLine", line: "Queue: 7 waiting · 3 running · 12 done · 1 needs you" });
    expect(screen.getByTestId("queue-line")).toHaveTextContent("Queue: 7 waiting · 3 running · 12 done · 1 needs you");
    await user.click(screen.getByTestId("queue-line"));
    expect(panel.posted).toContainEqual({ type: "showQueue" });
    panel.send({ type: "queueLine", line: null });
    expect(screen.queryByTestId("queue-line")).toBeNull();
  });

  it("comes with the snapshot the panel asks for when shown, and the toolbar queues tasks", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send({ ...snapshot([]), queue: "Queue: 2 waiting · paused at budget" });
    expect(screen.getByTestId("queue-line")).toHaveTextContent("Queue: 2 waiting · paused at budget");
    await user.click(screen.getByTestId("queue-tasks"));
    expect(panel.posted).toContainEqual({ type: "queueTasks" });
  });

  it("ignores a line that is not text", () => {
    const panel = renderPanel();
    panel.send(snapshot([]));
    panel.send({ type: "queueLine", line: { evil: true } } as never);
    expect(screen.queryByTestId("queue-line")).toBeNull();
  });
});

describe("the queue tab", () => {
  it("asks for the queue and shows each task: state, agent, model, time, cost, files, predicted merge, and why one failed", () => {
    const host = fakeVsCode();
    render(<QueueApp />);
    expect(host.posted).toEqual([{ type: "queueReady", requestId: expect.any(Number) }]);
    expect(screen.getByText("Reading the queue…")).toBeInTheDocument();
    send({
      type: "queueState",
      queue: queue([
        task("q1", {
          state: "done",
          stateWords: "done",
          agent: { id: "agent-1", name: "Agent #1" },
          model: "haiku",
          worktree: "add-a-footer",
          startedAt: 1_000,
          endedAt: 64_000,
          cost: "$0.42",
          files: 3,
          merge: "merges cleanly",
          can: none,
        }),
        task("q2", {
          state: "failed",
          stateWords: "failed",
          problem: "Its setup failed (exit code 3) after 2 s: its output is below.",
          output: "npm ERR! missing lockfile",
          can: { ...none, retry: true },
        }),
        task("q3", { can: { ...none, cancel: true, moveDown: true } }),
        task("q4", { can: { ...none, cancel: true, moveUp: true } }),
      ]),
    });
    expect(screen.getByTestId("queue-title")).toHaveTextContent("Queue: 2 waiting · 1 running · 1 done · 1 failed");
    const done = row("q1");
    expect(done.getByTestId("queue-task-state")).toHaveTextContent("done");
    expect(done.getByTestId("queue-task-agent")).toHaveTextContent("Agent #1");
    expect(done.getByTestId("queue-task-model")).toHaveTextContent("on haiku");
    expect(row("q2").queryByTestId("queue-task-model")).toBeNull();
    expect(done.getByTestId("queue-task-time")).toHaveTextContent("1m 03s");
    expect(done.getByTestId("queue-task-cost")).toHaveTextContent("$0.42");
    expect(done.getByTestId("queue-task-files")).toHaveTextContent("3 files");
    expect(done.getByTestId("queue-task-merge")).toHaveTextContent("merges cleanly");
    expect(done.queryByTestId("queue-task-cancel")).toBeNull();
    const failed = row("q2");
    expect(failed.getByTestId("queue-task-problem")).toHaveTextContent("Its setup failed (exit code 3)");
    expect(failed.getByTestId("queue-task-output")).toHaveTextContent("npm ERR! missing lockfile");
    expect(failed.getByTestId("queue-task-retry")).toBeInTheDocument();
    expect(row("q3").queryByTestId("queue-task-moveUp")).toBeNull();
    expect(row("q3").getByTestId("queue-task-moveDown")).toBeInTheDocument();
  });

  it("sends each button as a message naming its task: reorder, cancel, retry, mark done, pause, land", async () => {
    const user = userEvent.setup();
    const host = fakeVsCode();
    render(<QueueApp />);
    send({
      type: "queueState",
      queue: queue([
        task("q1", { state: "needsYou", stateWords: "needs you", agent: { id: "agent-1", name: "Agent #1" }, can: { ...none, cancel: true, markDone: true } }),
        task("q2", { state: "failed", stateWords: "failed", can: { ...none, retry: true } }),
        task("q3", { can: { ...none, cancel: true, moveDown: true } }),
        task("q4", { can: { ...none, cancel: true, moveUp: true } }),
      ]),
    });
    host.posted.length = 0;
    await user.click(row("q4").getByTestId("queue-task-moveUp"));
    await user.click(row("q2").getByTestId("queue-task-retry"));
    await user.click(row("q1").getByTestId("queue-task-markDone"));
    await user.click(row("q3").getByTestId("queue-task-cancel"));
    await user.click(row("q1").getByTestId("queue-task-agent"));
    await user.click(screen.getByTestId("queue-pause"));
    await user.click(screen.getByTestId("queue-land"));
    expect(host.posted).toEqual([
      { type: "queueTaskAction", taskId: "q4", action: "moveUp" },
      { type: "queueTaskAction", taskId: "q2", action: "retry" },
      { type: "queueTaskAction", taskId: "q1", action: "markDone" },
      { type: "queueTaskAction", taskId: "q3", action: "cancel" },
      { type: "queueTaskAction", taskId: "q1", action: "focus" },
      { type: "queueControl", action: "pause" },
      { type: "queueControl", action: "land" },
    ]);
  });

  it("says why nothing starts, and offers Resume while paused", () => {
    fakeVsCode();
    render(<QueueApp />);
    send({ type: "queueState", queue: queue([task("q1")], { paused: true, why: "The queue is paused: resume it to start the next task." }) });
    expect(screen.getByTestId("queue-why")).toHaveTextContent("The queue is paused");
    expect(screen.getByTestId("queue-pause")).toHaveTextContent("Resume");
  });
});

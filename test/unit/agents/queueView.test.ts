/**
 * The queue tab's view: each task's figures read from real git (the files its branch changed, and
 * how it would merge into the base now, or that it landed), its agent's name and cost from its
 * card, and only the buttons that apply (a task in line moves up or down among those in line; a
 * finished one only retries when it failed).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queueView, taskFigures } from "../../../src/agents/queue/queueView";
import { createWorktree } from "../../../src/core/git";
import { addTasks, newQueue, type Queue, type QueueTask } from "../../../src/core/queue";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

function started(task: QueueTask, worktree: string, commit: string, state: QueueTask["state"], agentId: string | null = null): QueueTask {
  return { ...task, state, start: { worktree, commit, setupDone: true, agentId, typed: true, startedAt: 1000 }, endedAt: state === "done" ? 61_000 : null };
}

describe("the queue tab's view", () => {
  it("reads each task's files and predicted merge from git: clean, conflicting, landed", async () => {
    const repo = committedRepo(tempDir());
    const base = git(repo, "rev-parse", "main").trim();
    const made = async (name: string, file: string, text: string) => {
      const info = await createWorktree(repo, name, { base: "main", commit: base });
      writeFileSync(join(info.path, file), text);
      git(info.path, "add", "-A");
      git(info.path, "commit", "-q", "-m", name);
    };
    await made("clean", "new.txt", "new\n");
    await made("clash", "README.md", "# theirs\n");
    await made("landed", "landed.txt", "landed\n");
    git(repo, "merge", "-q", "--no-edit", "worktree-landed");
    writeFileSync(join(repo, "README.md"), "# ours\n");
    git(repo, "commit", "-q", "-am", "base moves");
    let queue: Queue = addTasks(
      newQueue(repo, "main", 2),
      ["Add new", "Edit readme", "Land it", "Later", "Even later"].map((text) => ({ text })),
    );
    const [a, b, c] = queue.tasks;
    queue = {
      ...queue,
      tasks: [
        started(a!, "clean", base, "done", "agent-1"),
        started(b!, "clash", base, "running", "agent-2"),
        started(c!, "landed", base, "done"),
        ...queue.tasks.slice(3),
      ],
    };
    expect(await taskFigures(queue, queue.tasks[0]!)).toEqual({ files: 1, merge: "merges cleanly" });
    expect(await taskFigures(queue, queue.tasks[1]!)).toEqual({ files: 1, merge: "conflicts in README.md" });
    expect(await taskFigures(queue, queue.tasks[2]!)).toEqual({ files: 1, merge: "landed in main" });
    expect(await taskFigures(queue, queue.tasks[3]!)).toBeUndefined();

    const figures = new Map([["q1", { files: 1, merge: "merges cleanly" }]]);
    const view = queueView(queue, {
      line: "Queue: 2 waiting · 1 running · 2 done",
      why: undefined,
      agent: (id) => (id === "agent-1" ? { name: "Agent #1", costUsd: 0.4213 } : undefined),
      figures: (id) => figures.get(id),
    })!;
    expect(view.tasks.map((t) => [t.id, t.stateWords, t.agent?.name ?? null, t.cost, t.merge])).toEqual([
      ["q1", "done", "Agent #1", "$0.42", "merges cleanly"],
      ["q2", "running", null, null, null],
      ["q3", "done", null, null, null],
      ["q4", "waiting", null, null, null],
      ["q5", "waiting", null, null, null],
    ]);
    expect(view.tasks.map((t) => Object.entries(t.can).flatMap(([k, v]) => (v ? [k] : [])))).toEqual([
      [],
      ["cancel", "markDone"],
      [],
      ["moveDown", "cancel"],
      ["moveUp", "cancel"],
    ]);
    expect(queueView(null, { line: null, why: undefined, agent: () => undefined, figures: () => undefined })).toBeNull();
  });
});

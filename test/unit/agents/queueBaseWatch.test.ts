/**
 * The queue tab's forecasts follow the base branch: a task done on its branch reads "merges
 * cleanly"; once Land Finished Work… (or anyone) merges it into main, the base watch calls back and
 * the figures read again say "landed in main", and a task that now conflicts says so. Real git, real
 * fs.watch of the base's files (agents/queue/queueBaseWatch.ts); a new queue on another base is
 * followed there. Before the watch, the tab kept "merges cleanly" on a task already landed.
 */
import { watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchQueueBase } from "../../../src/agents/queue/queueBaseWatch";
import { taskFigures } from "../../../src/agents/queue/queueView";
import { HeadWatches } from "../../../src/agents/worktrees/headWatches";
import { createWorktree, gitFolders } from "../../../src/core/git";
import { addTasks, newQueue, type Queue, type QueueTask } from "../../../src/core/queue";
import { Emitter } from "../../../src/core/util";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";
import { pollUntil } from "../../support/waitFor";

const tempDir = useTempDirs();
const open: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.dispose();
});

const done = (task: QueueTask, worktree: string, commit: string): QueueTask => ({
  ...task,
  state: "done",
  start: { worktree, commit, setupDone: true, agentId: null, typed: true, startedAt: 1000 },
  endedAt: 2000,
});

/** A queue on main with two done tasks: one adds a note, one retitles the README (each committed on its branch). */
async function twoDone(): Promise<Queue> {
  const repo = committedRepo(tempDir());
  const base = git(repo, "rev-parse", "main").trim();
  for (const [name, file, text] of [
    ["note", "note.txt", "note\n"],
    ["retitle", "README.md", "# retitled\n"],
  ] as const) {
    const info = await createWorktree(repo, name, { base: "main", commit: base });
    writeFileSync(join(info.path, file), text);
    git(info.path, "add", "-A");
    git(info.path, "commit", "-q", "-m", name);
  }
  const queue = addTasks(newQueue(repo, "main", 2), [{ text: "Add a note" }, { text: "Retitle the readme" }]);
  return { ...queue, tasks: [done(queue.tasks[0]!, "note", base), done(queue.tasks[1]!, "retitle", base)] };
}

function watching(queue: () => Queue, changed = new Emitter<unknown>()) {
  let moves = 0;
  const folders: string[] = [];
  const heads = new HeadWatches(
    (folder, onName) => (folders.push(folder), watch(folder, { persistent: false }, (_e, name) => onName(name?.toString() ?? null))),
  );
  open.push(heads);
  open.push(watchQueueBase({ heads, queue, onDidChange: changed.event, gitFolders: (repo) => gitFolders(repo) }, () => moves++));
  return { moves: () => moves, changed, heads, folders };
}

describe("the queue tab's forecasts follow the base branch", () => {
  it("a landing on main calls back: the landed task then reads 'landed in main', the other its conflict", async () => {
    const queue = await twoDone();
    const [note, retitle] = queue.tasks;
    expect((await taskFigures(queue, note!))?.merge).toBe("merges cleanly");
    expect((await taskFigures(queue, retitle!))?.merge).toBe("merges cleanly");
    const watched = watching(() => queue);
    // The watch is set up once git said where its folders are: HEAD, index, packed-refs and refs/heads/main.
    await pollUntil(() => watched.heads.size === 4, "the base's files watched", 5_000);
    git(queue.repo, "merge", "-q", "--no-edit", "worktree-note");
    writeFileSync(join(queue.repo, "README.md"), "# ours\n");
    git(queue.repo, "commit", "-q", "-am", "the base moves");
    await pollUntil(() => watched.moves() > 0, "the base watch's call", 5_000);
    expect((await taskFigures(queue, note!))?.merge).toBe("landed in main");
    expect((await taskFigures(queue, retitle!))?.merge).toBe("conflicts in README.md");
  });

  it("a new queue on another base is followed there", async () => {
    let queue = await twoDone();
    const watched = watching(() => queue);
    await pollUntil(() => watched.heads.size === 4, "main's files watched", 5_000);
    git(queue.repo, "branch", "queue/other");
    queue = { ...queue, base: "queue/other" };
    watched.changed.fire(queue);
    // Its ref is in a folder of its own: watched once the watch moved there.
    await pollUntil(() => watched.folders.some((f) => f.endsWith(join(".git", "refs", "heads", "queue"))), "the other base's ref watched", 5_000);
    const before = watched.moves();
    git(queue.repo, "update-ref", "refs/heads/queue/other", "worktree-note");
    await pollUntil(() => watched.moves() > before, "the call for the other base", 5_000);
  });
});

/**
 * The queue's start, Arcadia's part, on a real repository: from a slot freeing (the task before it
 * done) to the next task typed — its worktree made from the base, its `.worktreeinclude` files
 * copied, its setup command run, its agent launched and typed at (the agent a stand-in that is
 * ready at once: the real CLI's own start-up is the e2e's figure) — without a setup command and
 * with one. And bootstrapping a worktree whose `.worktreeinclude` names a 200 MB `node_modules`:
 * copy-on-write where the file system can, plain copies elsewhere (which one it gave is printed).
 */
import { constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyWorktreeIncludes } from "../src/core/git";
import { addTasks, newQueue, taskOf } from "../src/core/queue";
import { git } from "../test/support/gitRepo";
import { queueRepo, queueWorld } from "../test/support/queueWorld";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

async function slotToTyped(row: Row, setupCommand: string | undefined, label: string): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "arcadia-bench-qstart-"));
  try {
    const repo = queueRepo(root);
    const world = queueWorld(repo, setupCommand ? { setupCommand } : {});
    await world.book.set(
      addTasks(
        newQueue(repo, "main", 1),
        Array.from({ length: 6 }, (_, i) => ({ text: `Task ${i + 1}` })),
      ),
    );
    await world.runner.pump();
    for (let i = 1; i <= 5; i++) {
      await world.until((q) => taskOf(q, `q${i}`)!.state === "running" && q, `q${i} running`);
      world.finish(`agent-${i}`, `f${i}.txt`);
    }
    await world.until((q) => taskOf(q, "q6")!.state === "running" && q, "q6 running");
    const typed = world.runner
      .startTimings()
      .slice(1)
      .map((t) => t.typedMs ?? NaN)
      .sort((a, b) => a - b);
    const median = typed[Math.floor(typed.length / 2)]!;
    row(
      `queue: slot freed → next task typed, ${label}`,
      `${median} ms`,
      "≤ 5 s without a setup command (median of 5)",
      setupCommand ? undefined : median <= 5000,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Whether this file system clones (copy-on-write) or copies. */
async function cloneKind(dir: string): Promise<string> {
  writeFileSync(join(dir, "probe-a"), "x");
  try {
    await copyFile(join(dir, "probe-a"), join(dir, "probe-b"), constants.COPYFILE_FICLONE_FORCE);
    return "copy-on-write";
  } catch {
    return "plain copy (no copy-on-write here)";
  }
}

async function bootstrap(row: Row): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "arcadia-bench-qboot-"));
  try {
    const repo = queueRepo(root);
    writeFileSync(join(repo, ".worktreeinclude"), ".env\nnode_modules/\n");
    writeFileSync(join(repo, ".gitignore"), ".env\n.claude/\nnode_modules/\n");
    git(repo, "commit", "-q", "-am", "include node_modules");
    const chunk = Buffer.alloc(100 * 1024, 7);
    for (let p = 0; p < 100; p++) {
      const dir = join(repo, "node_modules", `pkg-${p}`, "dist");
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(join(dir, `file-${f}.js`), chunk);
    }
    const worktree = join(root, "wt");
    git(repo, "worktree", "add", "-q", "-b", "bench", worktree);
    const start = performance.now();
    const copied = await copyWorktreeIncludes(repo, worktree);
    const ms = performance.now() - start;
    const kind = await cloneKind(root);
    row(`worktree bootstrap: 200 MB node_modules (${copied.copied.length} files)`, `${(ms / 1000).toFixed(1)} s`, kind, undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function queueStartBenchmarks(row: Row): Promise<void> {
  await slotToTyped(row, undefined, "no setup command");
  await slotToTyped(row, "echo ready > .setup-marker", "setup: echo > file");
  await bootstrap(row);
}

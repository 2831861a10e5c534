/**
 * The queue's model at the size of a long day: reading back and restoring a saved queue of 500
 * tasks (what a reload does before anything else), a 1,000-item Markdown task list read into
 * tasks, and "Land finished work…" planned on a real repository (five and ten finished tasks,
 * one conflicting with the moved base: merge-tree and commit-tree per prediction), with the
 * longest event-loop stall meanwhile (git runs in child processes).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { addTasks, aboutToType, agentLaunched, agentWorking, beginStart, gitMergeSimulator, landingPlan, newQueue } from "../src/core/queue";
import { readQueue, restoreQueue, serializeQueue, tasksFromTaskList } from "../src/core/queue";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

function timed<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const value = fn();
  return [value, performance.now() - start];
}

function restoreBench(row: Row): void {
  let queue = addTasks(
    newQueue("/repo", "main", 10),
    Array.from({ length: 500 }, (_, i) => ({ text: `Task number ${i}: fix the thing in module ${i}` })),
  );
  for (let i = 1; i <= 10; i++) {
    const id = `q${i}`;
    queue = agentWorking(aboutToType(agentLaunched(beginStart(queue, id, { worktree: `t-${i}`, commit: "0123abcd", now: 0 }), id, `a${i}`), id), id);
  }
  const saved = serializeQueue(queue);
  const runs: number[] = [];
  for (let r = 0; r < 20; r++) runs.push(timed(() => restoreQueue(readQueue(saved).queue!, () => ({ worktree: true, branch: true, agent: true }), 0))[1]);
  runs.sort((a, b) => a - b);
  row(`queue read + restore (500 tasks, ${(saved.length / 1024).toFixed(0)} KB)`, `${runs[10]!.toFixed(2)} ms`, "≤ 10 ms (median of 20)", runs[10]! <= 10);
  const list = Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? `- [ ] Area ${i}` : `  - [${i % 3 === 0 ? "x" : " "}] item ${i} to do`)).join("\n");
  const [read, ms] = timed(() => tasksFromTaskList(list));
  row(`task list → tasks (1,000 items, ${read.drafts.length} tasks)`, `${ms.toFixed(1)} ms`, "≤ 50 ms", ms <= 50);
}

async function landingBench(row: Row, count: number): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "arcadia-bench-queue-"));
  const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env, encoding: "utf8" }).trim();
  try {
    git("init", "-q", "-b", "main");
    for (let i = 0; i < count; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    const tasks = [];
    for (let i = 0; i < count; i++) {
      git("checkout", "-q", "-b", `t${i}`, "main");
      writeFileSync(join(root, `f${i}.txt`), `${i} by the task\n`);
      git("commit", "-q", "-am", `t${i}`);
      tasks.push({ id: `t${i}`, commit: git("rev-parse", "HEAD") });
      git("checkout", "-q", "main");
    }
    writeFileSync(join(root, "f0.txt"), "0 on main\n");
    git("commit", "-q", "-am", "main moves");
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const start = performance.now();
    const plan = await landingPlan(git("rev-parse", "main"), tasks, gitMergeSimulator(root));
    const ms = performance.now() - start;
    histogram.disable();
    row(
      `landing plan (${count} finished, ${plan.order.length} land, stop at ${plan.stop?.id})`,
      `${ms.toFixed(0)} ms`,
      "(printed; git off the event loop)",
      undefined,
    );
    row("  longest event-loop stall meanwhile", `${(histogram.max / 1e6).toFixed(1)} ms`, "≤ 20 ms", histogram.max / 1e6 <= 20);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function queueBenchmarks(row: Row): Promise<void> {
  restoreBench(row);
  // The loop's own jitter here over a comparable spell with nothing to do (a loaded 2-core VM).
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  idle.disable();
  row("event-loop stall, idle for 1 s (baseline)", `${(idle.max / 1e6).toFixed(1)} ms`, "(this machine)", undefined);
  await landingBench(row, 5);
  await landingBench(row, 10);
}

/**
 * Worktree agents: counting 1,000 changed files against the base (what the card shows) and
 * predicting a merge (merge-tree), each timed, with the longest stall of this event loop while it
 * ran (git runs in child processes started by a helper: the extension host must stay responsive,
 * ≤ 20 ms); and what starting git costs the event loop from a process an extension host's size.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { changeStats } from "../src/core/git/changeStats";
import { runGitHere } from "../src/core/git/gitHost";
import { runGit } from "../src/core/git/gitRunner";
import { planMerge } from "../src/core/git/worktreeMerge";
import { createWorktree } from "../src/core/git/worktreeCreate";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

const FILES = 1000;

/** Runs `fn` with the event loop watched: its time and the loop's longest delay meanwhile (ms). */
async function watched<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; maxStallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  const value = await fn();
  const ms = performance.now() - start;
  histogram.disable();
  return { value, ms, maxStallMs: histogram.max / 1e6 };
}

export async function worktreeBenchmarks(row: Row): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "arcadia-bench-wt-"));
  const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" };
  process.env = env;
  try {
    const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, stdio: "pipe" });
    git(root, "init", "-q", "-b", "main");
    mkdirSync(join(root, "src"));
    for (let i = 0; i < FILES; i++) writeFileSync(join(root, "src", `file${i}.ts`), Array.from({ length: 40 }, (_, l) => `export const v${l} = ${l};`).join("\n") + "\n");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "base");
    const tree = await createWorktree(root, "bench");
    // Half committed on the branch, half left uncommitted (a quarter of those untracked).
    for (let i = 0; i < FILES; i++) writeFileSync(join(tree.path, "src", `file${i}.ts`), Array.from({ length: 40 }, (_, l) => `export const v${l} = ${l % 3 === 0 ? l + 1 : l};`).join("\n") + "\n");
    git(tree.path, "commit", "-q", "-m", "half", "--", ...Array.from({ length: FILES / 2 }, (_, i) => `src/file${i}.ts`));
    for (let i = 0; i < FILES / 4; i++) writeFileSync(join(tree.path, "src", `new${i}.ts`), "export const fresh = 1;\n");
    // A change on main in a file the worktree also changed: the prediction has work to do.
    writeFileSync(join(root, "src", "file0.ts"), "export const other = 1;\n");
    git(root, "commit", "-q", "-am", "main moves on");

    // The loop's own jitter on this machine over a comparable spell with nothing to do: a stall
    // figure near it is the machine (a loaded 2-core VM), not the work.
    const idle = await watched(() => new Promise<void>((resolve) => setTimeout(resolve, 300)));
    row("event-loop stall, idle for 300 ms (baseline)", `${idle.maxStallMs.toFixed(1)} ms`, "(this machine)", undefined);
    await changeStats(tree.path, tree.base); // warm git's caches, as a card's second count would be
    const stats = await watched(() => changeStats(tree.path, tree.base));
    row(`change stats (${stats.value.files.length} files changed)`, `${stats.ms.toFixed(0)} ms`, "(printed; off the event loop)", undefined);
    row("  longest event-loop stall meanwhile", `${stats.maxStallMs.toFixed(1)} ms`, "≤ 20 ms", stats.maxStallMs <= 20);
    const plan = await watched(() => planMerge({ repo: root, worktree: tree.path, branch: tree.branch, base: tree.base }));
    const verdict = plan.value.ok ? "clean" : `${plan.value.conflicts?.length ?? 0} conflicting`;
    row(`merge prediction (${verdict})`, `${plan.ms.toFixed(0)} ms`, "(printed; off the event loop)", undefined);
    row("  longest event-loop stall meanwhile", `${plan.maxStallMs.toFixed(1)} ms`, "≤ 20 ms", plan.maxStallMs <= 20);
    await gitStartCost(row, tree.path);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * How long starting one git holds this event loop once the process is as big as an extension
 * host (+400 MB of heap): started here (fork copies the page tables) and through the helper.
 */
async function gitStartCost(row: Row, cwd: string): Promise<void> {
  const ballast = Array.from({ length: 400 }, () => Buffer.alloc(1024 * 1024, 1));
  const held = async (start: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      const running = start();
      samples.push(performance.now() - t);
      await running;
    }
    return samples.sort((a, b) => a - b)[4]!;
  };
  const run = { cwd, args: ["rev-parse", "HEAD"], env: process.env, timeoutMs: 10_000, maxBuffer: 1024 * 1024 };
  const direct = await held(() => runGitHere(run));
  const viaHelper = await held(() => runGit(cwd, ["rev-parse", "HEAD"]));
  row("git start, event loop held (+400 MB heap): here", `${direct.toFixed(1)} ms`, "(median of 9; fork copies page tables)", undefined);
  row("  … through the helper process", `${viaHelper.toFixed(1)} ms`, "≤ 20 ms", viaHelper <= 20);
  ballast.length = 0;
}

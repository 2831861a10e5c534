/**
 * A race's compare tab following its members' worktrees (agents/races/memberWatch.ts), on three
 * worktrees of 2,000 files in 200 folders with an ignored node_modules of 5,000 files each: the time
 * from a file written by hand in a member's worktree to the tab's view reading its passed check stale
 * (median of 5; target 2 s); the time from a commit on the base branch (in the main checkout) to the
 * tab's forecast reading the conflict it makes, and from its undoing to reading clean again (median of
 * 5 each; target 2 s: issue 33's acceptance); and what one read of a member's figures costs — the
 * read a 2 s safety poll would make per member (printed: why there is none).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompareFeed } from "../src/agents/races/compareFeed";
import { compareView } from "../src/agents/races/compareView";
import { watchBase } from "../src/agents/races/baseWatch";
import { watchMembers } from "../src/agents/races/memberWatch";
import { RaceFigures } from "../src/agents/races/raceFigures";
import { HeadWatches } from "../src/agents/worktrees/headWatches";
import { gitFolders } from "../src/core/git/gitFolders";
import { ignoredAmong, ignoredNow } from "../src/core/git/ignoredPaths";
import { createWorktree } from "../src/core/git/worktreeCreate";
import { memberChanges } from "../src/core/races/memberChanges";
import { branchExists, startingPoint } from "../src/core/races/raceDisk";
import type { Race } from "../src/core/races/race";
import { Emitter } from "../src/core/util/emitter";
import { nativeFolderWatch } from "../src/core/util/nativeFolderWatch";
import { percentile } from "./percentile";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;
const NOTHING = { sessions: 0, turns: 0, activeMs: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, unpricedModels: [] };

function fill(dir: string, folders: number, perFolder: number): void {
  for (let f = 0; f < folders; f++) {
    mkdirSync(join(dir, `d${f}`), { recursive: true });
    for (let i = 0; i < perFolder; i++) writeFileSync(join(dir, `d${f}`, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
}

export async function compareFollowsBenchmarks(row: Row): Promise<void> {
  const repo = mkdtempSync(join(tmpdir(), "arcadia-bench-compare-"));
  const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" };
  process.env = env;
  const open: { dispose(): void }[] = [];
  try {
    const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, stdio: "pipe" });
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, ".gitignore"), ".claude/\nnode_modules/\n");
    fill(join(repo, "src"), 200, 10);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    const from = (await startingPoint(repo))!;
    const members = [1, 2, 3].map((n) => ({ name: `m-${n}`, number: n, model: null, agentId: null, asked: true }));
    for (const m of members) {
      await createWorktree(repo, m.name, from);
      fill(join(repo, ".claude/worktrees", m.name, "node_modules"), 500, 10);
    }
    const race: Race = { id: "r", task: "m", prompt: "p", repo, base: "main", commit: null, startedAt: 0, members, picked: null, checks: {} };
    const figures = new RaceFigures({
      memberChanges,
      sessionsOf: () => ({ read: async () => NOTHING }),
      worktreeExists: () => true,
      branchExists,
      log: () => {},
    });
    await figures.readNow(race);
    const reads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await memberChanges(repo, join(repo, ".claude/worktrees/m-1"), "main");
      reads.push(performance.now() - started);
    }
    const readMs = percentile(
      reads.sort((a, b) => a - b),
      50,
    );
    row("compare: one member's figures read (git)", `${readMs.toFixed(0)} ms`, "(printed)", undefined);
    row("  a 2 s poll of 5 members: git running", `${((readMs * 5) / 20).toFixed(0)} % of the time`, "(why there is none)", undefined);

    const heads = new HeadWatches();
    const none = new Emitter<string>().event;
    const watchTree = nativeFolderWatch({ depth: 64 });
    const stale = () => compareView(race, view).members[1]!.check.state === "passed" && (compareView(race, view).members[1]!.check as { stale: boolean }).stale;
    let seenForecast: (() => void) | undefined;
    let forecastWanted: string | undefined;
    const forecast = () => figures.of(race, members[0]!)?.changes?.merge.kind;
    const view = {
      agent: () => undefined,
      figures: (m: (typeof members)[number]) => figures.of(race, m),
      checkRunningSince: () => undefined,
      checkCommand: "x",
      budget: { spent: "", paused: false },
    };
    let seenStale: (() => void) | undefined;
    const feed = new CompareFeed(
      race.id,
      {
        onDidChangeRace: none,
        onDidChangeFigures: figures.onDidChange,
        onDidChangeCheck: none,
        onDidChangeCard: none,
        onDidWork: none,
        membersOf: () => [],
        onDidMoveBase: (_id, listener) => watchBase({ heads, race: () => race, figures, gitFolders }, listener),
        onDidChangeWorktree: (_id, listener, asking) =>
          watchMembers({ race: () => race, heads, gitFolders, watchTree, ignoredNow, ignoredAmong, log: () => {} }, listener, asking),
      },
      {
        visible: () => true,
        onDidChangeVisible: new Emitter<boolean>().event,
        show: () => {
          if (stale()) seenStale?.();
          if (forecastWanted !== undefined && forecast() === forecastWanted) seenForecast?.();
        },
        reread: () => {},
        readAll: () => void figures.readNow(race),
        readMember: (name) =>
          void figures.readOne(
            race,
            members.find((m) => m.name === name)!,
          ),
      },
    );
    open.push(feed, figures, { dispose: () => heads.dispose() });
    await new Promise((r) => setTimeout(r, 1000));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      race.checks["m-2"] = { exitCode: 0, durationMs: 1, finishedAt: 1, tree: figures.of(race, members[1]!)!.changes!.tree };
      const seen = new Promise<void>((resolve) => (seenStale = resolve));
      const started = performance.now();
      writeFileSync(join(repo, ".claude/worktrees/m-2/src/d7", `by-hand-${i}.ts`), "export {};\n");
      await Promise.race([seen, new Promise((r) => setTimeout(r, 10_000))]);
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 300));
    }
    const p50 = percentile(
      times.sort((a, b) => a - b),
      50,
    );
    row("compare: file by hand → check reads stale", `${p50.toFixed(0)} ms`, "≤ 2000 ms", p50 <= 2000);

    // Member 1 edits a file (uncommitted, as an agent leaves it); a commit on main then edits the same
    // line: its forecast must turn to the conflict, and back to clean once main's commit is undone.
    const line = "src/d3/f3.ts";
    writeFileSync(join(repo, ".claude/worktrees/m-1", line), "export const v3 = 'member';\n");
    await figures.readOne(race, members[0]!);
    const until = async (kind: string, act: () => void): Promise<number> => {
      forecastWanted = kind;
      const seen = new Promise<void>((resolve) => (seenForecast = resolve));
      const started = performance.now();
      act();
      await Promise.race([seen, new Promise((r) => setTimeout(r, 10_000))]);
      const ms = performance.now() - started;
      forecastWanted = undefined;
      await new Promise((r) => setTimeout(r, 300));
      return ms;
    };
    const toConflict: number[] = [];
    const toClean: number[] = [];
    for (let i = 0; i < 5; i++) {
      toConflict.push(
        await until("conflicts", () => {
          writeFileSync(join(repo, line), `export const v3 = 'main ${i}';\n`);
          git(repo, "commit", "-q", "-am", `main ${i}`);
        }),
      );
      toClean.push(await until("clean", () => git(repo, "reset", "-q", "--hard", "HEAD~1")));
    }
    const conflictP50 = percentile(
      toConflict.sort((a, b) => a - b),
      50,
    );
    const cleanP50 = percentile(
      toClean.sort((a, b) => a - b),
      50,
    );
    row("compare: commit on main → forecast reads the conflict", `${conflictP50.toFixed(0)} ms`, "≤ 2000 ms", conflictP50 <= 2000);
    row("  main's commit undone → forecast reads clean", `${cleanP50.toFixed(0)} ms`, "≤ 2000 ms", cleanP50 <= 2000);
  } finally {
    for (const d of open) d.dispose();
    rmSync(repo, { recursive: true, force: true });
  }
}

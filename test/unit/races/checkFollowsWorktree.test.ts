/**
 * An open compare tab follows each member's worktree whatever changed it, with no agent working: a
 * file added by hand marks that member's passed check stale ("its files changed since") and its
 * count goes up (within 2 s: bench/compareFollows.ts times it; here how long is printed); so does a
 * `git commit` from a terminal, and an edit made while the tab is hidden once it is shown again. A file git ignores changes nothing and reads nothing. The real
 * figures, feed, member watch (fs.watch per folder, the worktree's HEAD and index), git and the tab's
 * own words (compareText.ts); only the tab is a recorder. How long each took is printed, never asserted.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CompareFeed, type RaceNews } from "../../../src/agents/races/compareFeed";
import { compareView } from "../../../src/agents/races/compareView";
import { watchMembers } from "../../../src/agents/races/memberWatch";
import { RaceFigures } from "../../../src/agents/races/raceFigures";
import { HeadWatches } from "../../../src/agents/worktrees/headWatches";
import { gitFolders } from "../../../src/core/git/gitFolders";
import { ignoredAmong, ignoredNow } from "../../../src/core/git/ignoredPaths";
import { createWorktree } from "../../../src/core/git/worktreeCreate";
import { memberChanges } from "../../../src/core/races/memberChanges";
import { branchExists, startingPoint } from "../../../src/core/races/raceDisk";
import type { Race } from "../../../src/core/races/race";
import { Emitter } from "../../../src/core/util/emitter";
import { nativeFolderWatch } from "../../../src/core/util/nativeFolderWatch";
import type { RaceCompareView } from "../../../src/shared/protocol";
import { changesText, checkText } from "../../../webview-ui/src/compareText";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
const open: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.dispose();
});
const NOTHING = { sessions: 0, turns: 0, activeMs: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, unpricedModels: [] };
const budget = { spent: "race fix: $0.00 (no cap on this race)", paused: false };

/** What the user reads in each column: its changes and its check, in the tab's own words. */
const words = (view: RaceCompareView) => view.members.map((m) => ({ changes: changesText(m, view.base), check: checkText(m.check, 0) }));

/** A race of two members on main, each with one edit, whose checks passed on their worktrees as they are; the tab is open and shown. */
async function openTab() {
  const repo = tempDir();
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, ".gitignore"), ".claude/\nnode_modules/\n*.log\n");
  writeFileSync(join(repo, "App.tsx"), 'export const title = "base";\n');
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "base");
  const from = (await startingPoint(repo))!;
  for (const n of [1, 2]) await createWorktree(repo, `fix-${n}`, from);
  const worktree = (n: number) => join(repo, ".claude/worktrees", `fix-${n}`);
  for (const n of [1, 2]) writeFileSync(join(worktree(n), "App.tsx"), `export const title = "${n}";\n`);
  mkdirSync(join(worktree(2), "node_modules", "dep"), { recursive: true });
  const member = (n: number) => ({ name: `fix-${n}`, number: n, model: null, agentId: null, asked: true });
  const race: Race = {
    id: "r1",
    task: "fix",
    prompt: "Fix it",
    repo,
    base: "main",
    commit: null,
    startedAt: 0,
    members: [member(1), member(2)],
    picked: null,
    checks: {},
  };
  /** Every read of a member's changes (git), by its worktree. */
  const reads: string[] = [];
  const figures = new RaceFigures({
    memberChanges: (r, w, b) => (reads.push(w), memberChanges(r, w, b)),
    sessionsOf: () => ({ read: async () => NOTHING }),
    worktreeExists: () => true,
    branchExists,
    log: () => undefined,
  });
  await figures.readNow(race);
  // Both checks passed on the worktrees as they are now.
  for (const m of race.members) race.checks[m.name] = { exitCode: 0, durationMs: 1200, finishedAt: 1, tree: figures.of(race, m)!.changes!.tree };
  const heads = new HeadWatches();
  const none = new Emitter<string>().event;
  const watchTree = nativeFolderWatch({ depth: 64 });
  /** The member watch, once the feed has asked for it. */
  let watching: ReturnType<typeof watchMembers> | undefined;
  const news: RaceNews = {
    onDidChangeRace: none,
    onDidChangeFigures: figures.onDidChange,
    onDidChangeCheck: none,
    onDidChangeCard: none,
    onDidWork: none,
    membersOf: () => [],
    onDidMoveBase: () => ({ dispose: () => undefined }),
    onDidChangeWorktree: (_id, listener, asking) =>
      (watching = watchMembers({ race: () => race, heads, gitFolders, watchTree, ignoredNow, ignoredAmong, log: () => undefined }, listener, asking)),
  };
  const view = () =>
    compareView(race, { agent: () => undefined, figures: (m) => figures.of(race, m), checkRunningSince: () => undefined, checkCommand: "npm test", budget });
  const shown: ReturnType<typeof words>[] = [];
  let visible = true;
  const visibility = new Emitter<boolean>();
  const feed = new CompareFeed(race.id, news, {
    visible: () => visible,
    onDidChangeVisible: visibility.event,
    show: () => shown.push(words(view())),
    reread: () => undefined,
    readAll: () => void figures.readNow(race),
    readMember: (name) =>
      void figures.readOne(
        race,
        race.members.find((m) => m.name === name)!,
      ),
  });
  open.push(feed, figures, { dispose: () => heads.dispose() });
  const setVisible = (v: boolean) => ((visible = v), visibility.fire(v));
  /** Resolves with the first view shown from now on that satisfies `pred`, and how long it took. */
  const nextShown = async (pred: (w: ReturnType<typeof words>) => boolean, what: string) => {
    const from = shown.length;
    const started = Date.now();
    for (;;) {
      const hit = shown.slice(from).find(pred);
      if (hit) return { columns: hit, ms: Date.now() - started };
      // Not a timing (the bench times it against 2 s: bench/compareFollows.ts): without the watch, it never comes.
      if (Date.now() - started > 10_000) throw new Error(`the tab never showed ${what}; it showed ${JSON.stringify(shown.slice(from))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // The watches in place (git asked what it ignores and where the folders are).
  await watching?.ready;
  return { repo, worktree, view, reads, shown, nextShown, setVisible };
}

const stale = (check: string) => check.endsWith(" · its files changed since");

describe("an open compare tab follows its members' worktrees, whatever changed them", () => {
  it("a file added by hand to a member's worktree: its passed check reads stale and its count includes the file; the other's does not", async () => {
    const { worktree, view, nextShown } = await openTab();
    expect(words(view())).toEqual([
      { changes: "1 file · +1 −1", check: "passed · exit 0 · 1.2 s" },
      { changes: "1 file · +1 −1", check: "passed · exit 0 · 1.2 s" },
    ]);
    writeFileSync(join(worktree(2), "notes.md"), "by hand\n");
    const { columns, ms } = await nextShown((c) => stale(c[1]!.check), "fix-2's check stale");
    console.log(`a file added by hand → the tab reads the check stale: ${ms} ms`);
    expect(columns).toEqual([
      { changes: "1 file · +1 −1", check: "passed · exit 0 · 1.2 s" },
      { changes: "2 files · +2 −1", check: "passed · exit 0 · 1.2 s · its files changed since" },
    ]);
  });

  it("a file edited and committed from a terminal in the worktree: the check reads stale and the counts follow", async () => {
    const { worktree, nextShown } = await openTab();
    writeFileSync(join(worktree(1), "App.tsx"), 'export const title = "1";\nexport const more = 2;\n');
    git(worktree(1), "commit", "-qam", "by hand");
    const { columns, ms } = await nextShown((c) => stale(c[0]!.check), "fix-1's check stale");
    console.log(`a commit from a terminal → the tab reads the check stale: ${ms} ms`);
    expect(columns[0]).toEqual({ changes: "1 file · +2 −1", check: "passed · exit 0 · 1.2 s · its files changed since" });
  });

  it("a file removed by hand: the check reads stale and the file is no longer counted", async () => {
    const { worktree, nextShown } = await openTab();
    execFileSync("git", ["checkout", "--", "App.tsx"], { cwd: worktree(1) });
    const { columns } = await nextShown((c) => stale(c[0]!.check), "fix-1's check stale");
    expect(columns[0]).toEqual({ changes: "no changes", check: "passed · exit 0 · 1.2 s · its files changed since" });
  });

  it("files git ignores (a dependency installed, a log): nothing is read again, the check still reads passed", async () => {
    const { worktree, view, reads } = await openTab();
    const before = reads.length;
    writeFileSync(join(worktree(2), "node_modules", "dep", "index.js"), "module.exports = 1;\n");
    mkdirSync(join(worktree(2), "node_modules", "dep", "lib"));
    writeFileSync(join(worktree(2), "check.log"), "ran\n");
    await new Promise((r) => setTimeout(r, 1000));
    expect(reads.length - before).toBe(0);
    expect(words(view())[1]).toEqual({ changes: "1 file · +1 −1", check: "passed · exit 0 · 1.2 s" });
  });

  it("hidden: a file added reads nothing; shown again, the tab reads the check stale", async () => {
    const { worktree, reads, setVisible, nextShown } = await openTab();
    setVisible(false);
    const before = reads.length;
    writeFileSync(join(worktree(1), "later.md"), "while hidden\n");
    await new Promise((r) => setTimeout(r, 600));
    expect(reads.length - before).toBe(0);
    const shownAgain = nextShown((c) => stale(c[0]!.check), "fix-1's check stale once shown");
    setVisible(true);
    expect((await shownAgain).columns[0]).toEqual({ changes: "2 files · +2 −1", check: "passed · exit 0 · 1.2 s · its files changed since" });
  });
});

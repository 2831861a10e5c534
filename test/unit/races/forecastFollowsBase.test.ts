/**
 * An open compare tab's merge forecast follows the base branch, in a real repository, with no agent
 * working: a conflicting commit on main (in the main checkout, or from another checkout of the
 * repository) turns "merges cleanly" into the conflict; the main checkout switched to another branch
 * turns it into Pick's refusal, and so does an edit (not staged) in the main checkout to a file a
 * member changed. The real figures, feed, base watch (fs.watch of HEAD, index, the base's ref and
 * the members' files in the main checkout) and git; only the tab is a recorder. How long each took is printed, never asserted.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchBase } from "../../../src/agents/races/baseWatch";
import { CompareFeed, type RaceNews } from "../../../src/agents/races/compareFeed";
import { RaceFigures } from "../../../src/agents/races/raceFigures";
import { HeadWatches } from "../../../src/agents/worktrees/headWatches";
import { gitFolders } from "../../../src/core/git/gitFolders";
import { createWorktree } from "../../../src/core/git/worktreeCreate";
import { memberChanges, type MemberChanges } from "../../../src/core/races/memberChanges";
import { branchExists, startingPoint } from "../../../src/core/races/raceDisk";
import type { Race } from "../../../src/core/races/race";
import { Emitter } from "../../../src/core/util/emitter";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
const open: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.dispose();
});

/** A race of two members on main: fix-1 changed the title (uncommitted), fix-2 the notes; the tab is open and shown. */
async function openTab() {
  const repo = tempDir();
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, ".gitignore"), ".claude/\n");
  writeFileSync(join(repo, "App.tsx"), 'export const title = "base";\n');
  writeFileSync(join(repo, "notes.md"), "one\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "base");
  const from = (await startingPoint(repo))!;
  for (const n of [1, 2]) await createWorktree(repo, `fix-${n}`, from);
  writeFileSync(join(repo, ".claude/worktrees/fix-1/App.tsx"), 'export const title = "one";\n');
  writeFileSync(join(repo, ".claude/worktrees/fix-2/notes.md"), "two\n");
  const member = (n: number) => ({ name: `fix-${n}`, number: n, model: null, agentId: null, asked: true });
  const race: Race = { id: "r1", task: "fix", prompt: "Fix it", repo, base: "main", commit: null, startedAt: 0, members: [member(1), member(2)], picked: null, checks: {} };
  const figures = new RaceFigures({
    memberChanges,
    sessionsOf: () => ({
      read: async () => ({ sessions: 0, turns: 0, activeMs: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, unpricedModels: [] }),
    }),
    worktreeExists: () => true,
    branchExists,
    log: () => undefined,
  });
  const heads = new HeadWatches();
  const none = new Emitter<string>().event;
  const news: RaceNews = {
    onDidChangeRace: none,
    onDidChangeFigures: figures.onDidChange,
    onDidChangeCheck: none,
    onDidChangeCard: none,
    onDidWork: none,
    membersOf: () => [],
    onDidMoveBase: (_id, listener) => watchBase({ heads, race: () => race, figures, gitFolders }, listener),
    onDidChangeWorktree: () => ({ dispose: () => undefined }),
  };
  /** What the tab showed, each time it was sent a view: each member's forecast. */
  const shown: MemberChanges["merge"][][] = [];
  const feed = new CompareFeed(race.id, news, {
    visible: () => true,
    onDidChangeVisible: new Emitter<boolean>().event,
    show: () => shown.push(race.members.map((m) => figures.of(race, m)?.changes?.merge ?? { kind: "unavailable", reason: "not read" })),
    reread: () => undefined,
    readAll: () => void figures.readNow(race),
    readMember: () => undefined,
  });
  open.push(feed, figures, { dispose: () => heads.dispose() });
  await figures.readNow(race);
  /** Resolves with the first view shown from now on that satisfies `pred`, and how long it took. */
  const nextShown = async (pred: (merges: MemberChanges["merge"][]) => boolean, what: string) => {
    const from = shown.length;
    const started = Date.now();
    for (;;) {
      const hit = shown.slice(from).find(pred);
      if (hit) return { merges: hit, ms: Date.now() - started };
      if (Date.now() - started > 15_000) throw new Error(`the tab never showed ${what}; it showed ${JSON.stringify(shown.slice(from))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // Let the watches be set up (git is asked where the folders are).
  await gitFolders(repo);
  await new Promise((r) => setTimeout(r, 100));
  return { repo, shown, nextShown };
}

describe("an open compare tab's merge forecast follows the base branch", () => {
  it("a conflicting commit on main in the main checkout: the member it conflicts with reads the conflict, the other stays clean", async () => {
    const { repo, shown, nextShown } = await openTab();
    expect(shown.at(-1)).toEqual([{ kind: "clean" }, { kind: "clean" }]);
    writeFileSync(join(repo, "App.tsx"), 'export const title = "main moved";\n');
    git(repo, "commit", "-qam", "main moves the title");
    const { merges, ms } = await nextShown((m) => m[0]?.kind === "conflicts", "fix-1's conflict");
    console.log(`a commit on main → the tab's forecast: ${ms} ms`);
    expect(merges).toEqual([{ kind: "conflicts", files: ["App.tsx"] }, { kind: "clean" }]);
  });

  it("a commit on main made from another checkout of the repository (its ref moves, not the main checkout's index)", async () => {
    const { repo, nextShown } = await openTab();
    const other = join(tempDir(), "other");
    git(repo, "worktree", "add", "-q", "--detach", other, "main");
    writeFileSync(join(other, "App.tsx"), 'export const title = "elsewhere";\n');
    git(other, "commit", "-qam", "the title, elsewhere");
    git(other, "update-ref", "refs/heads/main", "HEAD");
    const { merges, ms } = await nextShown((m) => m[0]?.kind !== "clean", "fix-1's forecast change");
    console.log(`main's ref moved from another checkout → the tab's forecast: ${ms} ms`);
    expect(merges[0]).toEqual({ kind: "conflicts", files: ["App.tsx"] });
  });

  it("an edit, not staged, in the main checkout to a file a member changed: that member reads Pick's refusal", async () => {
    const { repo, nextShown } = await openTab();
    writeFileSync(join(repo, "notes.md"), "one\nmine, not committed\n");
    const { merges, ms } = await nextShown((m) => m[1]?.kind === "blocked", "Pick's refusal for fix-2");
    console.log(`an edit in the main checkout → the tab's forecast: ${ms} ms`);
    expect(merges).toEqual([
      { kind: "clean" },
      { kind: "blocked", reason: "The main checkout has uncommitted changes in files the merge touches: notes.md. Commit or stash them first." },
    ]);
  });

  it("the main checkout switched to another branch: every member reads Pick's refusal", async () => {
    const { repo, nextShown } = await openTab();
    git(repo, "switch", "-q", "-c", "elsewhere");
    const reason = 'The main checkout is on "elsewhere", not "main": switch it to main first.';
    const { merges } = await nextShown((m) => m.every((x) => x.kind === "blocked"), "Pick's refusal");
    expect(merges).toEqual([
      { kind: "blocked", reason },
      { kind: "blocked", reason },
    ]);
  });
});

/**
 * The compare view's figures against git's own numbers, in real repositories: each member's files
 * and `+a −b` (what `git diff --numstat` says once its work is committed), its merge forecast (what
 * `git merge` really does in a scratch clone), and "diff two agents" (git's diff between their
 * branches). The members start from one commit even when the base moved meanwhile.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffBetween } from "../../../src/core/git/changeStats";
import { createWorktree } from "../../../src/core/git/worktreeCreate";
import { memberChanges } from "../../../src/core/races/memberChanges";
import { branchExists, commitWork, startingPoint, takenWorktreeNames } from "../../../src/core/races/raceDisk";
import { lossOf, removalCheck, removeWorktree } from "../../../src/core/git/worktreeRemoval";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
process.env = { ...process.env, ...IDENTITY };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

/** A repository with three members of race "t" made from its first commit; main then moves on in App.tsx. */
async function raceRepo() {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "App.tsx"), 'export const title = "base";\nexport const count = 0;\n');
  writeFileSync(join(root, "notes.md"), "one\ntwo\nthree\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  const from = (await startingPoint(root))!;
  // Main moves on after the start point was taken: every member still starts from it.
  writeFileSync(join(root, "App.tsx"), 'export const title = "main moved";\nexport const count = 0;\n');
  git(root, "commit", "-qam", "main moves");
  const trees: string[] = [];
  for (const n of [1, 2, 3]) trees.push((await createWorktree(root, `t-${n}`, from)).path);
  return { root, from, trees };
}

/** git's numbers for a worktree's work: committed as it stands, then `git diff --numstat` from where it branched. */
function gitNumbers(tree: string): { files: Record<string, [number, number]>; snapshotTree: string } {
  git(tree, "add", "-A");
  git(tree, "commit", "-qm", "work", "--allow-empty");
  const base = git(tree, "merge-base", "main", "HEAD").trim();
  const files: Record<string, [number, number]> = {};
  for (const line of git(tree, "diff", "--numstat", base, "HEAD").trim().split("\n").filter(Boolean)) {
    const [a, r, path] = line.split("\t");
    files[path!] = [Number(a), Number(r)];
  }
  return { files, snapshotTree: git(tree, "rev-parse", "HEAD^{tree}").trim() };
}

/** What `git merge` of the branch into main really does, in a scratch clone: the conflicting files, or none. */
function realMerge(root: string, branch: string): string[] {
  const scratch = join(tempDir(), "clone");
  execFileSync("git", ["clone", "-q", root, scratch]);
  git(scratch, "checkout", "-q", "main");
  try {
    git(scratch, "merge", "-q", "--no-edit", `origin/${branch}`);
    return [];
  } catch {
    return git(scratch, "diff", "--name-only", "--diff-filter=U").trim().split("\n").filter(Boolean).sort();
  }
}

describe("a race's compare figures", () => {
  it("start every member from one commit, recorded with its base branch, and know which names are taken", async () => {
    const { root, from, trees } = await raceRepo();
    for (const tree of trees) expect(git(tree, "rev-parse", "HEAD").trim()).toBe(from.commit);
    expect(git(root, "config", "--get", "branch.worktree-t-2.arcadiaBase").trim()).toBe("main");
    expect([...(await takenWorktreeNames(root))].sort()).toEqual(["t-1", "t-2", "t-3"]);
    expect(await branchExists(root, "worktree-t-3")).toBe(true);
    expect(await branchExists(root, "worktree-t-4")).toBe(false);
    await expect(createWorktree(root, "t-9", { base: "--upload-pack=x", commit: from.commit })).rejects.toThrow(/not a branch/);
  });

  it("count each member's files and lines as git does, committed, uncommitted and untracked alike; predict each merge as git merges", async () => {
    const { root, trees } = await raceRepo();
    const [one, two, three] = trees as [string, string, string];
    // 1: a committed change elsewhere + an untracked file: merges cleanly.
    writeFileSync(join(one, "notes.md"), "one\nTWO\nthree\nfour\n");
    git(one, "commit", "-qam", "notes");
    mkdirSync(join(one, "src"));
    writeFileSync(join(one, "src", "new.ts"), "a\nb\nc\n");
    // 2: the title, uncommitted: conflicts with main's own change of it.
    writeFileSync(join(two, "App.tsx"), 'export const title = "two";\nexport const count = 0;\n');
    // 3: a deleted file and a staged one.
    git(three, "rm", "-q", "notes.md");
    writeFileSync(join(three, "x.md"), "x\n");
    git(three, "add", "x.md");

    const figures = [];
    for (const tree of trees) figures.push(await memberChanges(root, tree, "main"));
    for (const [i, tree] of trees.entries()) {
      const mine = figures[i]!;
      const theirs = gitNumbers(tree);
      expect(Object.fromEntries(mine.files.map((f) => [f.path, [f.added, f.removed]]))).toEqual(theirs.files);
      expect([mine.added, mine.removed]).toEqual(Object.values(theirs.files).reduce(([a, r], [x, y]) => [a + x, r + y], [0, 0]));
      // The snapshot held exactly what was then committed; its tree (what a check ran on) is git's.
      expect(git(root, "rev-parse", `${mine.snapshot}^{tree}`).trim()).toBe(theirs.snapshotTree);
      expect(mine.tree).toBe(theirs.snapshotTree);
      const conflicts = realMerge(root, `worktree-t-${i + 1}`);
      expect(mine.merge).toEqual(conflicts.length === 0 ? { kind: "clean" } : { kind: "conflicts", files: conflicts });
    }
    expect(figures.map((f) => f.merge.kind)).toEqual(["clean", "conflicts", "clean"]);
    expect(figures[2]!.files.map((f) => [f.path, f.status])).toEqual([
      ["notes.md", "deleted"],
      ["x.md", "added"],
    ]);
  });

  it("tell files that changed from the same files committed (a merge commits them: a check on them is not stale)", async () => {
    const { root, trees } = await raceRepo();
    const one = trees[0]!;
    writeFileSync(join(one, "App.tsx"), 'export const title = "one";\nexport const count = 0;\n');
    const before = await memberChanges(root, one, "main");
    git(one, "commit", "-qam", "the same files, committed");
    const committed = await memberChanges(root, one, "main");
    expect(committed.snapshot).not.toBe(before.snapshot);
    expect(committed.tree).toBe(before.tree);
    writeFileSync(join(one, "App.tsx"), 'export const title = "one, again";\nexport const count = 0;\n');
    expect((await memberChanges(root, one, "main")).tree).not.toBe(before.tree);
  });

  it("keep an unpicked member's work on its branch: committed, its folder removed, the branch and its files still in git", async () => {
    const { root, trees } = await raceRepo();
    const two = trees[1]!;
    writeFileSync(join(two, "App.tsx"), 'export const title = "two";\nexport const count = 0;\n');
    writeFileSync(join(two, "extra.ts"), "2\n");
    expect(lossOf(await removalCheck(two, "main"))).toMatch(/2 uncommitted files/);
    await commitWork(two, "Race t: t-2's work (not picked)");
    const after = await removalCheck(two, "main");
    expect(after.uncommitted).toEqual([]);
    expect(await removeWorktree(root, two, "main", lossOf(after))).toEqual({ removed: true, branchDeleted: false });
    expect(existsSync(two)).toBe(false);
    expect(await branchExists(root, "worktree-t-2")).toBe(true);
    expect(git(root, "show", "worktree-t-2:App.tsx")).toContain('"two"');
    expect(git(root, "show", "worktree-t-2:extra.ts")).toBe("2\n");
    expect(git(root, "log", "-1", "--format=%s", "worktree-t-2").trim()).toBe("Race t: t-2's work (not picked)");
  });

  it("diff two members as git diffs their branches", async () => {
    const { root, trees } = await raceRepo();
    const [one, two] = trees as [string, string];
    writeFileSync(join(one, "App.tsx"), 'export const title = "one";\nexport const count = 0;\n');
    writeFileSync(join(two, "App.tsx"), 'export const title = "two";\nexport const count = 2;\n');
    writeFileSync(join(two, "only-two.ts"), "2\n");
    const [a, b] = [await memberChanges(root, one, "main"), await memberChanges(root, two, "main")];
    const between = await diffBetween(root, a.snapshot, b.snapshot);
    gitNumbers(one);
    gitNumbers(two);
    const expected = git(root, "diff", "--numstat", "worktree-t-1", "worktree-t-2").trim().split("\n");
    expect(between.map((f) => `${f.added}\t${f.removed}\t${f.path}`)).toEqual(expected);
    expect(between.map((f) => f.status)).toEqual(["modified", "added"]);
    expect(existsSync(join(one, "only-two.ts"))).toBe(false);
  });
});

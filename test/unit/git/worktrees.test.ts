/**
 * Worktree agents' changes, merge and removal against real git repositories on disk: what the
 * card counts, what a merge would do (predicted without touching anything), what it does, and
 * what removing a worktree would lose.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { changeStats } from "../../../src/core/git/changeStats";
import { predictMerge, predictionUnavailable } from "../../../src/core/git/mergePrediction";
import { mergeWorktree, planMerge } from "../../../src/core/git/worktreeMerge";
import { lossOf, removalCheck, removeWorktree } from "../../../src/core/git/worktreeRemoval";
import { snapshotWorkTree } from "../../../src/core/git/worktreeSnapshot";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
process.env = { ...process.env, ...IDENTITY };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

function repoWithWorktrees(...names: string[]): { root: string; trees: Record<string, string> } {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "App.tsx"), 'export const title = "base";\nexport const count = 0;\n');
  writeFileSync(join(root, "notes.md"), "one\ntwo\nthree\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  const trees: Record<string, string> = {};
  for (const name of names) {
    trees[name] = join(root, ".claude", "worktrees", name);
    git(root, "worktree", "add", "-q", "-b", `worktree-${name}`, trees[name]!);
  }
  return { root, trees };
}

/** Every file under `dir` (but .git and the worktrees folder) with its hash, plus `git status`. */
function fingerprint(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (name === ".git" || relative(dir, p) === ".claude") continue;
      if (statSync(p).isDirectory()) walk(p);
      else files.push(`${relative(dir, p)} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`);
    }
  };
  walk(dir);
  return `${files.sort().join("\n")}\n--\n${git(dir, "status", "--porcelain=v1", "--untracked-files=all")}\n--\n${git(dir, "rev-parse", "HEAD")}`;
}

describe("a worktree agent's changes against its base", () => {
  it("counts committed, staged, unstaged, untracked, deleted and binary files, touching nothing", async () => {
    const { trees } = repoWithWorktrees("a");
    const tree = trees.a!;
    writeFileSync(join(tree, "App.tsx"), 'export const title = "a";\nexport const count = 0;\nexport const more = 1;\n');
    git(tree, "commit", "-qam", "agent a");
    writeFileSync(join(tree, "notes.md"), "one\nTWO\nthree\n");
    writeFileSync(join(tree, "staged.ts"), "s\n");
    git(tree, "add", "staged.ts");
    writeFileSync(join(tree, "new.ts"), "x\ny\n");
    writeFileSync(join(tree, "logo.bin"), Buffer.from([0, 1, 2, 0, 255]));
    const before = fingerprint(tree) + readFileSync(join(tree, ".git"), "utf8");
    const stats = await changeStats(tree, "main");
    const byPath = Object.fromEntries(stats.files.map((f) => [f.path, [f.status, f.added, f.removed, f.binary]]));
    expect(byPath).toEqual({
      "App.tsx": ["modified", 2, 1, false],
      "notes.md": ["modified", 1, 1, false],
      "staged.ts": ["added", 1, 0, false],
      "new.ts": ["added", 2, 0, false],
      "logo.bin": ["added", 0, 0, true],
    });
    expect([stats.added, stats.removed]).toEqual([6, 2]);
    // Nothing in the work tree, its index or its refs moved.
    expect(fingerprint(tree) + readFileSync(join(tree, ".git"), "utf8")).toBe(before);
    expect(git(tree, "diff", "--cached", "--name-only")).toBe("staged.ts\n");
  });

  it("a rename is one file; an unchanged work tree has no changes and its snapshot is HEAD", async () => {
    const { trees } = repoWithWorktrees("a");
    const tree = trees.a!;
    expect((await changeStats(tree, "main")).files).toEqual([]);
    expect(await snapshotWorkTree(tree)).toBe(git(tree, "rev-parse", "HEAD").trim());
    git(tree, "mv", "notes.md", "docs.md");
    expect((await changeStats(tree, "main")).files).toEqual([{ path: "docs.md", from: "notes.md", status: "renamed", added: 0, removed: 0, binary: false }]);
  });

  it("sees a file changed to the same size in the second its index was written (git's racy-file check holds in the snapshot)", async () => {
    const { trees } = repoWithWorktrees("a");
    const tree = trees.a!;
    writeFileSync(join(tree, "notes.md"), "ONE\ntwo\nthree\n");
    // The same second as the index: only git's racy-file rule tells this change from an unchanged file.
    const index = statSync(join(git(tree, "rev-parse", "--absolute-git-dir").trim(), "index")).mtime;
    utimesSync(join(tree, "notes.md"), index, index);
    expect((await changeStats(tree, "main")).files).toEqual([{ path: "notes.md", status: "modified", added: 1, removed: 1, binary: false }]);
  });
});

describe("merging a worktree into its base", () => {
  it("two agents edit the same line differently: the first merges cleanly into main, the second's conflict is predicted and nothing in the main checkout changes", async () => {
    expect(await predictionUnavailable()).toBeUndefined();
    const { root, trees } = repoWithWorktrees("a", "b");
    writeFileSync(join(trees.a!, "App.tsx"), 'export const title = "from a";\nexport const count = 0;\n');
    writeFileSync(join(trees.b!, "App.tsx"), 'export const title = "from b";\nexport const count = 0;\n');

    const first = await mergeWorktree({ repo: root, worktree: trees.a!, branch: "worktree-a", base: "main" }, "Title from a");
    expect(first).toMatchObject({ merged: true, committed: true, files: ["App.tsx"] });
    expect(readFileSync(join(root, "App.tsx"), "utf8")).toContain('"from a"');
    expect(git(root, "log", "--format=%s", "-1", "main")).toBe("Title from a\n");

    const before = fingerprint(root);
    const treeBefore = fingerprint(trees.b!);
    const plan = await planMerge({ repo: root, worktree: trees.b!, branch: "worktree-b", base: "main" });
    expect(plan).toMatchObject({ ok: false, conflicts: ["App.tsx"] });
    const second = await mergeWorktree({ repo: root, worktree: trees.b!, branch: "worktree-b", base: "main" }, "Title from b");
    expect(second).toMatchObject({ merged: false, conflicts: ["App.tsx"] });
    expect(fingerprint(root)).toBe(before);
    expect(fingerprint(trees.b!)).toBe(treeBefore);
  });

  it("says exactly what blocks a merge: the main checkout on another branch, or uncommitted there in a file the merge touches", async () => {
    const { root, trees } = repoWithWorktrees("a");
    writeFileSync(join(trees.a!, "notes.md"), "one\ntwo\nthree\nfour\n");
    const request = { repo: root, worktree: trees.a!, branch: "worktree-a", base: "main" };
    writeFileSync(join(root, "notes.md"), "mine\n");
    expect(await planMerge(request)).toEqual({
      ok: false,
      blocked: "The main checkout has uncommitted changes in files the merge touches: notes.md. Commit or stash them first.",
    });
    git(root, "checkout", "-q", "--", "notes.md");
    git(root, "checkout", "-q", "-b", "other");
    expect(await planMerge(request)).toEqual({ ok: false, blocked: 'The main checkout is on "other", not "main": switch it to main first.' });
    git(root, "checkout", "-q", "main");
    // An uncommitted change elsewhere in the main checkout does not block.
    writeFileSync(join(root, "App.tsx"), "mine\n");
    expect(await planMerge(request)).toEqual({ ok: true, files: ["notes.md"], uncommitted: true });
  });

  it("predicts from commits alone (a branch tip)", async () => {
    const { root, trees } = repoWithWorktrees("a");
    writeFileSync(join(trees.a!, "notes.md"), "one\n");
    git(trees.a!, "commit", "-qam", "a");
    expect(await predictMerge(root, "main", "worktree-a")).toMatchObject({ clean: true });
  });
});

describe("removing a worktree", () => {
  it("refuses to drop uncommitted work without an explicit yes, and says what would be lost", async () => {
    const { root, trees } = repoWithWorktrees("a");
    writeFileSync(join(trees.a!, "draft.ts"), "work\n");
    expect(await removeWorktree(root, trees.a!, "main", "")).toEqual({ removed: false, wouldLose: "1 uncommitted file (draft.ts)" });
    expect(existsSync(join(trees.a!, "draft.ts"))).toBe(true);
    expect(await removeWorktree(root, trees.a!, "main", "1 uncommitted file (draft.ts)")).toEqual({ removed: true, branchDeleted: true });
    expect(existsSync(trees.a!)).toBe(false);
  });

  it("removes only what the user said yes to: a file written after the question refuses the removal", async () => {
    const { root, trees } = repoWithWorktrees("a");
    writeFileSync(join(trees.a!, "draft.ts"), "work\n");
    const agreed = lossOf(await removalCheck(trees.a!, "main"));
    // The agent (or anything else) writes one more file between the question and the removal.
    writeFileSync(join(trees.a!, "later.ts"), "more work\n");
    expect(await removeWorktree(root, trees.a!, "main", agreed)).toEqual({ removed: false, wouldLose: "2 uncommitted files (draft.ts, later.ts)" });
    expect(existsSync(join(trees.a!, "later.ts"))).toBe(true);
  });

  it("a merged worktree is removed and its branch deleted; an unmerged branch is kept even when its worktree goes", async () => {
    const { root, trees } = repoWithWorktrees("a", "b");
    writeFileSync(join(trees.a!, "notes.md"), "merged\n");
    await mergeWorktree({ repo: root, worktree: trees.a!, branch: "worktree-a", base: "main" }, "a");
    expect(await removalCheck(trees.a!, "main")).toEqual({ uncommitted: [], unmerged: [], branch: "worktree-a" });
    expect(await removeWorktree(root, trees.a!, "main", "")).toEqual({ removed: true, branchDeleted: true });
    expect(git(root, "branch", "--list", "worktree-a")).toBe("");

    writeFileSync(join(trees.b!, "App.tsx"), "b\n");
    git(trees.b!, "commit", "-qam", "b's work");
    const refused = await removeWorktree(root, trees.b!, "main", "");
    expect(refused).toEqual({ removed: false, wouldLose: "1 commit not merged into the base (kept on branch worktree-b)" });
    expect(await removeWorktree(root, trees.b!, "main", "1 commit not merged into the base (kept on branch worktree-b)")).toEqual({
      removed: true,
      branchDeleted: false,
    });
    expect(git(root, "log", "--format=%s", "-1", "worktree-b")).toBe("b's work\n");
    rmSync(join(root, ".claude"), { recursive: true, force: true });
  });
});

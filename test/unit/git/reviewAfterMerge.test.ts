/**
 * A worktree's Review reads its base side where the work branched from the base branch at the
 * time it is read (real git): after a merge it is the merged work, so an open Review empties
 * instead of keeping the pre-merge diff (issue 33). The branch comes from a URI anyone can open.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileAtMergeBase, fileAtRef } from "../../../src/core/git/fileAtRef";
import { changeStats } from "../../../src/core/git/changeStats";
import { mergeWorktree } from "../../../src/core/git/worktreeMerge";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
process.env = { ...process.env, ...IDENTITY };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

function repoWithWorktree(): { root: string; tree: string } {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "App.tsx"), "base\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  const tree = join(root, ".claude", "worktrees", "fix");
  git(root, "worktree", "add", "-q", "-b", "worktree-fix", tree);
  return { root, tree };
}

describe("a Review's base side after a merge", () => {
  it("is the base as it was before the merge, then the merged work: the Review's diff empties", async () => {
    const { root, tree } = repoWithWorktree();
    writeFileSync(join(tree, "App.tsx"), "fixed\n");
    const opened = await changeStats(tree, "main");
    expect(await fileAtMergeBase(tree, "main", "App.tsx")).toBe("base\n");
    expect(await fileAtRef(tree, opened.base, "App.tsx")).toBe("base\n");
    expect((await mergeWorktree({ repo: root, worktree: tree, branch: "worktree-fix", base: "main" }, "fix")).merged).toBe(true);
    // The commit the Review was opened at still says "base": a Review pinned to it kept the old diff.
    expect(await fileAtRef(tree, opened.base, "App.tsx")).toBe("base\n");
    expect(await fileAtMergeBase(tree, "main", "App.tsx")).toBe("fixed\n");
  });

  it("takes only a branch name, never an option or a range, from the URI", async () => {
    const { tree } = repoWithWorktree();
    for (const hostile of ["--output=/tmp/x", "main..HEAD", "-n", "", 42, "main\n--all"]) expect(await fileAtMergeBase(tree, hostile, "App.tsx")).toBe("");
    expect(await fileAtMergeBase(tree, "no-such-branch", "App.tsx")).toBe("");
  });
});

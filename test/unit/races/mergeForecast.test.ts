/**
 * The compare tab's merge forecast says what Pick will do, in real repositories: where Pick (Merge…)
 * refuses — an uncommitted file in the main checkout that the merge would touch, the main checkout
 * on another branch — the forecast says so in Pick's own words; where Pick merges (an uncommitted
 * file the merge does not touch), the forecast says it merges cleanly, and the merge goes through.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorktree } from "../../../src/core/git/worktreeCreate";
import { mergeWorktree, planMerge } from "../../../src/core/git/worktreeMerge";
import { memberChanges } from "../../../src/core/races/memberChanges";
import { startingPoint } from "../../../src/core/races/raceDisk";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
process.env = { ...process.env, ...IDENTITY };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

/** A repository on main with one race member (`worktree-t-1`) that changed notes.md, uncommitted. */
async function memberWithWork() {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "notes.md"), "one\ntwo\n");
  writeFileSync(join(root, "App.tsx"), "export const x = 1;\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  const tree = (await createWorktree(root, "t-1", (await startingPoint(root))!)).path;
  writeFileSync(join(tree, "notes.md"), "one\nTWO\n");
  const request = { repo: root, worktree: tree, branch: "worktree-t-1", base: "main" };
  return { root, tree, request };
}

describe("the merge forecast says what Pick will do", () => {
  it("an uncommitted change in the main checkout to a file the merge touches: Pick refuses, and the forecast says so in Pick's words", async () => {
    const { root, tree, request } = await memberWithWork();
    writeFileSync(join(root, "notes.md"), "one\ntwo\nmine, not committed\n");
    const forecast = (await memberChanges(root, tree, "main")).merge;
    const plan = await planMerge(request);
    expect(plan.ok).toBe(false);
    const pickSays = plan.ok ? "" : plan.blocked;
    expect(pickSays).toBe("The main checkout has uncommitted changes in files the merge touches: notes.md. Commit or stash them first.");
    expect(forecast).toEqual({ kind: "blocked", reason: pickSays });
    // And Pick really refuses: nothing merged, the user's file untouched.
    expect(await mergeWorktree(request, "notes")).toEqual({ merged: false, blocked: pickSays });
    expect(git(root, "log", "--oneline").trim().split("\n")).toHaveLength(1);
    expect(git(root, "status", "--porcelain", "--", "notes.md").trim()).toBe("M notes.md");
  });

  it("an untracked file in the main checkout where the member adds one: refused by both, with the same words", async () => {
    const { root, tree, request } = await memberWithWork();
    writeFileSync(join(tree, "new.ts"), "theirs\n");
    writeFileSync(join(root, "new.ts"), "mine\n");
    const forecast = (await memberChanges(root, tree, "main")).merge;
    const plan = await planMerge(request);
    expect(forecast).toEqual({ kind: "blocked", reason: plan.ok ? "" : plan.blocked });
    expect(forecast.kind === "blocked" && forecast.reason).toContain("new.ts");
  });

  it("the main checkout on another branch: the forecast says Pick would ask to switch it first", async () => {
    const { root, tree } = await memberWithWork();
    git(root, "switch", "-q", "-c", "elsewhere");
    expect((await memberChanges(root, tree, "main")).merge).toEqual({
      kind: "blocked",
      reason: 'The main checkout is on "elsewhere", not "main": switch it to main first.',
    });
  });

  it("an uncommitted file the merge does not touch: the forecast says clean, and Pick merges", async () => {
    const { root, tree, request } = await memberWithWork();
    writeFileSync(join(root, "App.tsx"), "export const x = 2; // mine, not committed\n");
    expect((await memberChanges(root, tree, "main")).merge).toEqual({ kind: "clean" });
    expect(await mergeWorktree(request, "notes")).toMatchObject({ merged: true, files: ["notes.md"] });
    expect(git(root, "show", "HEAD:notes.md")).toBe("one\nTWO\n");
  });
});

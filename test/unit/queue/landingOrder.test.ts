/**
 * "Land finished work…" planned on a real repository with real git: four clean tasks and a fifth
 * that conflicts with the base as it moved, finished in an order that would stop at once if taken
 * as it is. The plan lands the four (each predicted onto the base with the ones before merged),
 * stops at the fifth naming its file, changes nothing while planning, and the real merges done in
 * its order go as predicted. And two tasks over the same lines: the one that blocks fewer lands first.
 */
import { execFileSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitMergeSimulator, type Landable, landingPlan } from "../../../src/core/queue";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

function repository(): string {
  const root = realpathSync(tempDir());
  git(root, "init", "-q", "-b", "main");
  for (const f of ["a", "b", "c", "d"]) writeFileSync(join(root, `${f}.txt`), `${f}\n`);
  writeFileSync(join(root, "shared.txt"), "one\ntwo\nthree\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  return root;
}

/** A task's branch from `from`, changing `file` to `text`: its tip commit. */
function task(root: string, name: string, file: string, text: string, from = "main"): Landable {
  git(root, "checkout", "-q", "-b", name, from);
  writeFileSync(join(root, file), text);
  git(root, "commit", "-q", "-am", name);
  const commit = git(root, "rev-parse", "HEAD");
  git(root, "checkout", "-q", "main");
  return { id: name, commit };
}

const state = (root: string) => [git(root, "for-each-ref"), git(root, "status", "--porcelain"), git(root, "rev-parse", "HEAD")];

describe("the landing order", () => {
  it("lands four clean tasks and stops at the fifth, which conflicts with the moved base, naming its file", async () => {
    const root = repository();
    const fifth = task(root, "t5", "shared.txt", "one\nTWO by the task\nthree\n");
    const four = ["a", "b", "c", "d"].map((f, i) => task(root, `t${i + 1}`, `${f}.txt`, `${f} changed\n`));
    // The base moves after the fifth was made from it: the same line, changed on main.
    writeFileSync(join(root, "shared.txt"), "one\nTWO on main\nthree\n");
    git(root, "commit", "-q", "-am", "main moves");
    const base = git(root, "rev-parse", "main");
    const before = state(root);

    const plan = await landingPlan(base, [fifth, ...four], gitMergeSimulator(root));

    expect(plan).toEqual({ order: ["t1", "t2", "t3", "t4"], stop: { id: "t5", conflicts: ["shared.txt"] }, waiting: [] });
    expect(state(root)).toEqual(before);
    for (const id of plan.order) git(root, "merge", "-q", "--no-edit", id);
    expect(() => git(root, "merge", "-q", "--no-edit", "t5")).toThrow();
    expect(git(root, "diff", "--name-only", "--diff-filter=U")).toBe("shared.txt");
    git(root, "merge", "--abort");
    expect(git(root, "log", "--format=%s", "--first-parent", `${base}..main`).split("\n")).toEqual([
      "Merge branch 't4'",
      "Merge branch 't3'",
      "Merge branch 't2'",
      "Merge branch 't1'",
    ]);
  });

  it("lands first the task that blocks fewer of the others when two change the same lines", async () => {
    const root = repository();
    writeFileSync(join(root, "shared.txt"), "1\n2\n3\n4\n5\n");
    git(root, "commit", "-q", "-am", "five lines");
    // "wide" changes every line: it conflicts with both others, which do not conflict with each other.
    const wide = task(root, "wide", "shared.txt", "1!\n2!\n3!\n4!\n5!\n");
    const top = task(root, "top", "shared.txt", "1 top\n2\n3\n4\n5\n");
    const bottom = task(root, "bottom", "shared.txt", "1\n2\n3\n4\n5 bottom\n");
    const base = git(root, "rev-parse", "main");
    const plan = await landingPlan(base, [wide, top, bottom], gitMergeSimulator(root));
    expect(plan.order).toEqual(["top", "bottom"]);
    expect(plan.stop).toEqual({ id: "wide", conflicts: ["shared.txt"] });
  });

  it("lands every task when none conflicts, in the order they finished", async () => {
    const root = repository();
    const tasks = ["c", "a", "b"].map((f) => task(root, `t-${f}`, `${f}.txt`, `${f}!\n`));
    const plan = await landingPlan(git(root, "rev-parse", "main"), tasks, gitMergeSimulator(root));
    expect(plan).toEqual({ order: ["t-c", "t-a", "t-b"], stop: null, waiting: [] });
  });

  it("names what waits behind the stop, to be planned again once the user skips it or its agent rebases", async () => {
    const conflicts = new Set(["x", "y"]);
    const plan = await landingPlan(
      "base",
      [
        { id: "x", commit: "x" },
        { id: "y", commit: "y" },
        { id: "z", commit: "z" },
      ],
      {
        merge: async (onto, theirs) => (conflicts.has(theirs) ? { clean: false, conflicts: [`${theirs}.txt`] } : { clean: true, commit: `${onto}+${theirs}` }),
        files: async (_base, theirs) => [`${theirs}.txt`],
      },
    );
    expect(plan).toEqual({ order: ["z"], stop: { id: "x", conflicts: ["x.txt"] }, waiting: ["y"] });
  });
});

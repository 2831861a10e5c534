/**
 * Worktree agents on their cards, with real git: an agent in a worktree gets its branch and its
 * changes, counted again after its tools end; an agent in the main checkout gets nothing. Every
 * agent gets the branch checked out where it works, kept current when it switches.
 */
import { execFileSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watch } from "node:fs";
import { HeadWatches } from "../../../src/agents/worktrees/headWatches";
import { followWorktreeAgents, WorktreeCards } from "../../../src/agents/worktrees/worktreeCards";
import { changeStats } from "../../../src/core/git/changeStats";
import { createWorktree, worktreeOf } from "../../../src/core/git/worktreeCreate";
import { Emitter } from "../../../src/core/util/emitter";
import { waitForChange } from "../../support/waitFor";
import { useTempDirs } from "../../support/tempDir";
import { handCards } from "../../support/cardEvents";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };

/** A repository on `main` with one commit (a.ts). */
function repository(): string {
  const root = realpathSync(tempDir());
  execFileSync("git", ["init", "-q", "-b", "main", root]);
  writeFileSync(join(root, "a.ts"), "a\n");
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-q", "-m", "base"], { cwd: root });
  return root;
}

describe("worktree agents on their cards", () => {
  it("an agent in its worktree shows branch, base and changes, recounted when its tools end; one in the main checkout shows none", async () => {
    const root = repository();
    const tree = await createWorktree(root, "one");
    const cards = new WorktreeCards({ worktreeOf, changeStats, log: () => undefined, settleMs: 10 });
    const changes = handCards();
    const hooks = new Emitter<string>();
    const cwd: Record<string, string> = { a1: tree.path, a2: root };
    followWorktreeAgents(cards, { cards: changes, agentCwd: (id) => cwd[id], onDidHook: hooks.event });
    const view = (id: string, want: (v: ReturnType<WorktreeCards["worktree"]>) => boolean) =>
      waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => want(cards.worktree(id)) && cards.worktree(id),
        10_000,
        `${id}'s worktree view`,
      );

    changes.change({ id: "a1", status: "active" } as never);
    changes.change({ id: "a2", status: "active" } as never);
    expect(await view("a1", (v) => v?.changes !== null)).toEqual({ branch: "worktree-one", base: "main", changes: { files: 0, added: 0, removed: 0 } });

    writeFileSync(join(tree.path, "a.ts"), "a\nb\nc\n");
    writeFileSync(join(tree.path, "new.ts"), "n\n");
    hooks.fire("a1");
    expect(await view("a1", (v) => v?.changes?.files === 2)).toMatchObject({ changes: { files: 2, added: 3, removed: 0 } });
    expect(cards.worktree("a2")).toBeNull();
    changes.remove("a1");
    expect(cards.worktree("a1")).toBeNull();
    cards.dispose();
  });
});

describe("every agent's branch on its card", () => {
  it("the branch checked out where each agent works, worktree or not, and the new one as soon as it switches (no tool of its own needed)", async () => {
    const root = repository();
    const tree = await createWorktree(root, "two");
    const outside = realpathSync(tempDir());
    const cards = new WorktreeCards({ worktreeOf, changeStats, log: () => undefined, settleMs: 10 });
    const changes = handCards();
    const cwd: Record<string, string> = { shared: join(root), nested: join(root), tree: tree.path, none: outside };
    followWorktreeAgents(cards, { cards: changes, agentCwd: (id) => cwd[id], onDidHook: new Emitter<string>().event });
    const branch = (id: string, want: string | undefined) =>
      waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => cards.folderFacts(id).branch === want && want,
        5_000,
        `${id} on ${want}`,
      );

    for (const id of ["shared", "tree", "none"]) changes.change({ id, name: id, status: "active" } as never);
    expect(await branch("shared", "main")).toBe("main");
    expect(await branch("tree", "worktree-two")).toBe("worktree-two");
    // Not in a repository: no branch, nothing said.
    expect(cards.folderFacts("none")).toEqual({ worktree: null });

    // The user (or the agent) switches branch in the shared checkout: the card follows by itself.
    execFileSync("git", ["checkout", "-q", "-b", "feature/login"], { cwd: root });
    expect(await branch("shared", "feature/login")).toBe("feature/login");
    // A detached HEAD shows its short commit id.
    execFileSync("git", ["-C", tree.path, "checkout", "-q", "--detach"]);
    const id = execFileSync("git", ["-C", tree.path, "rev-parse", "--short=7", "HEAD"], { encoding: "utf8" }).trim();
    expect(await branch("tree", id)).toBe(id);
    cards.dispose();
  });

  it("twenty agents in one checkout share one HEAD watch (a worktree's agent has its own); all follow a switch; it goes with the last", async () => {
    const root = repository();
    const tree = await createWorktree(root, "three");
    let opened = 0;
    const heads = new HeadWatches((folder, onName) => (opened++, watch(folder, { persistent: false }, (_e, name) => onName(name?.toString() ?? null))));
    const cards = new WorktreeCards({ worktreeOf, changeStats, log: () => undefined, settleMs: 10, heads });
    const ids = Array.from({ length: 20 }, (_, i) => `a${i}`);
    for (const id of ids) cards.track(id, root, id);
    cards.track("tree", tree.path, "tree");
    const all = (want: string) =>
      waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => ids.every((id) => cards.folderFacts(id).branch === want),
        5_000,
        `all on ${want}`,
      );
    await all("main");
    await waitForChange(
      (on) => cards.onDidChange(on).dispose,
      () => cards.folderFacts("tree").branch === "worktree-three",
      5_000,
      "tree on its branch",
    );
    expect(opened).toBe(2);
    expect(heads.size).toBe(2);
    execFileSync("git", ["checkout", "-q", "-b", "feature/fifty"], { cwd: root });
    await all("feature/fifty");
    for (const id of ids.slice(1)) cards.forget(id);
    expect(heads.size).toBe(2);
    cards.forget(ids[0] as string);
    expect(heads.size).toBe(1);
    cards.dispose();
    expect(heads.size).toBe(0);
  });
});

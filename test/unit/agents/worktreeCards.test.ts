/**
 * Worktree agents on their cards, with real git: an agent in a worktree gets its branch and its
 * changes, counted again after its tools end; an agent in the main checkout gets nothing.
 */
import { execFileSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { followWorktreeAgents, WorktreeCards } from "../../../src/agents/worktrees/worktreeCards";
import { changeStats } from "../../../src/core/git/changeStats";
import { createWorktree, worktreeOf } from "../../../src/core/git/worktreeCreate";
import { Emitter } from "../../../src/core/util/emitter";
import { waitForChange } from "../../support/waitFor";
import { useTempDirs } from "../../support/tempDir";
import { handCards } from "../../support/cardEvents";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };

describe("worktree agents on their cards", () => {
  it("an agent in its worktree shows branch, base and changes, recounted when its tools end; one in the main checkout shows none", async () => {
    const root = realpathSync(tempDir());
    execFileSync("git", ["init", "-q", "-b", "main", root]);
    writeFileSync(join(root, "a.ts"), "a\n");
    execFileSync("git", ["add", "-A"], { cwd: root });
    execFileSync("git", ["commit", "-q", "-m", "base"], { cwd: root });
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

/**
 * The collision guard against a real git repository on disk (real git, real symlinks, a real
 * worktree): who collides, and when a collision is over.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { rememberSessionEdits } from "../../../src/agents/collisions/collisionCards";
import { Emitter } from "../../../src/core/util/emitter";
import { nodeCollisionDisk } from "../../../src/core/collisions/collisionDisk";
import { CollisionGuard } from "../../../src/core/collisions/collisionGuard";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const repo = () => committedRepo(tempDir());

describe("the collision guard", () => {
  it("an inode an edit freed, given to another file later, does not make that file the same one (seen in the demo's e2e)", async () => {
    const greet = "/w/.claude/worktrees/welcome/src/greet.ts";
    const app = "/w/src/app.ts";
    const ids = new Map([
      [greet, "1:100"],
      [app, "1:300"],
    ]);
    const guard = new CollisionGuard({ identify: async (path) => ({ path, id: ids.get(path) }), uncommitted: async () => true });
    expect(await guard.beforeEdit("a1", "t1", greet)).toBeUndefined();
    // Agent 1's edit writes a new greet.ts; the number it freed goes to the next file made, a new app.ts.
    ids.set(greet, "1:200");
    ids.set(app, "1:100");
    expect(await guard.beforeEdit("a2", "t2", app)).toBeUndefined();
    // A real second name of greet.ts (a hard link) still is greet.ts.
    ids.set("/w/alias.ts", "1:200");
    expect((await guard.beforeEdit("a3", "t3", "/w/alias.ts"))?.others).toEqual([{ agentId: "a1", now: true }]);
  });

  it("an edit of a file another agent is editing right now collides, and both agents share it", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const app = join(root, "src", "App.tsx");
    expect(await guard.beforeEdit("a1", "t1", app)).toBeUndefined();
    const collision = await guard.beforeEdit("a2", "t2", app);
    expect(collision?.others).toEqual([{ agentId: "a1", now: true }]);
    expect(guard.sharedFiles("a1").map((f) => f.otherAgentIds)).toEqual([["a2"]]);
    expect(guard.sharedFiles("a2").map((f) => f.otherAgentIds)).toEqual([["a1"]]);
  });

  it("a file another agent changed collides while it is uncommitted, and no longer once it is committed", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const app = join(root, "src", "App.tsx");
    await guard.beforeEdit("a1", "t1", app);
    writeFileSync(app, "export const app = 2;\n");
    guard.afterEdit("a1", "t1", true);
    expect((await guard.beforeEdit("a2", "t2", app))?.others).toEqual([{ agentId: "a1", now: false }]);
    guard.afterEdit("a2", "t2", true);
    const changes: string[][] = [];
    guard.onDidChange((ids) => changes.push(ids.sort()));
    git(root, "commit", "-q", "-am", "agent 1's change");
    await guard.recheck();
    expect(guard.sharedFiles("a1")).toEqual([]);
    expect(changes).toEqual([["a1", "a2"]]);
    // Committed: a third agent's edit of it is no collision.
    expect(await guard.beforeEdit("a3", "t3", app)).toBeUndefined();
  });

  it("an edit that did not happen (denied, failed) or a turn that ended leaves nothing behind", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const readme = join(root, "README.md");
    await guard.beforeEdit("a1", "t1", readme);
    guard.afterEdit("a1", "t1", false);
    expect(await guard.beforeEdit("a2", "t2", readme)).toBeUndefined();
    await guard.beforeEdit("a3", "t3", join(root, "src", "App.tsx"));
    guard.turnEnded("a3");
    expect(await guard.beforeEdit("a4", "t4", join(root, "src", "App.tsx"))).toBeUndefined();
  });

  it("two spellings of one file (a symlinked folder, a file not created yet) are one file", async () => {
    const root = repo();
    symlinkSync(join(root, "src"), join(root, "alias"));
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    await guard.beforeEdit("a1", "t1", join(root, "alias", "App.tsx"));
    expect((await guard.beforeEdit("a2", "t2", join(root, "src", "..", "src", "App.tsx")))?.others).toEqual([{ agentId: "a1", now: true }]);
    await guard.beforeEdit("a1", "t3", join(root, "alias", "new", "File.ts"));
    expect((await guard.beforeEdit("a2", "t4", join(root, "src", "new", "File.ts")))?.path).toBe(join(root, "src", "new", "File.ts"));
  });

  it("agents in different git worktrees never collide on the same file of the repository", async () => {
    const root = repo();
    const tree = join(tempDir(), "wt");
    git(root, "worktree", "add", "-q", "-b", "worktree-x", tree);
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    await guard.beforeEdit("a1", "t1", join(root, "src", "App.tsx"));
    guard.afterEdit("a1", "t1", true);
    expect(await guard.beforeEdit("a2", "t2", join(tree, "src", "App.tsx"))).toBeUndefined();
  });

  it("an agent that goes takes its shares with it: the other card's warning goes too", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const app = join(root, "src", "App.tsx");
    await guard.beforeEdit("a1", "t1", app);
    await guard.beforeEdit("a2", "t2", app);
    const changes: string[][] = [];
    guard.onDidChange((ids) => changes.push(ids));
    guard.forgetAgent("a1");
    expect(guard.sharedFiles("a2")).toEqual([]);
    expect(changes).toEqual([["a2"]]);
  });

  it("outside any git repository an edited file counts as uncommitted", async () => {
    const folder = tempDir();
    const notes = join(folder, "notes.txt");
    writeFileSync(notes, "x\n");
    const guard = new CollisionGuard(nodeCollisionDisk(() => [folder]));
    await guard.beforeEdit("a1", "t1", notes);
    guard.afterEdit("a1", "t1", true);
    expect((await guard.beforeEdit("a2", "t2", notes))?.others).toEqual([{ agentId: "a1", now: false }]);
  });
});

describe("after a window reload", () => {
  it("the agents' session edits, read from their transcripts, bring back the warning on a file still uncommitted; a committed one stays quiet", async () => {
    const root = repo();
    const app = join(root, "src", "App.tsx");
    // Before the reload: both agents changed App.tsx; the hooks told a guard that is now gone.
    writeFileSync(app, "export const app = 3;\n");
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const changes: string[][] = [];
    guard.onDidChange((ids) => changes.push(ids.sort()));
    await guard.rememberEdited("a1", [app]);
    expect(guard.sharedFiles("a1")).toEqual([]);
    await guard.rememberEdited("a2", [app]);
    expect(guard.sharedFiles("a1").map((f) => f.otherAgentIds)).toEqual([["a2"]]);
    expect(guard.sharedFiles("a2").map((f) => f.otherAgentIds)).toEqual([["a1"]]);
    expect(changes).toEqual([["a1", "a2"]]);
    // Told again (the transcript grew): nothing new.
    await guard.rememberEdited("a2", [app]);
    expect(changes).toHaveLength(1);

    git(root, "commit", "-q", "-am", "both agents' change");
    const fresh = new CollisionGuard(nodeCollisionDisk(() => [root]));
    await fresh.rememberEdited("a1", [app]);
    await fresh.rememberEdited("a2", [app]);
    expect(fresh.sharedFiles("a1")).toEqual([]);
  });
});

describe("the cards' session edits feed the guard", () => {
  it("each agent's session files, when they change, are remembered: two agents' uncommitted file warns on both cards", async () => {
    const root = repo();
    const app = join(root, "src", "App.tsx");
    writeFileSync(app, "export const app = 4;\n");
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const changed = new Emitter<string[]>();
    const files: Record<string, string[]> = { a1: [app], a2: [app] };
    const owned = rememberSessionEdits(guard, { files: (id) => files[id] ?? [], onDidChange: changed.event }, () => undefined);
    const shared = new Promise<string[]>((resolve) => guard.onDidChange(resolve));
    changed.fire(["a1", "a2"]);
    expect((await shared).sort()).toEqual(["a1", "a2"]);
    await vi.waitFor(() => expect(guard.sharedFiles("a2").map((f) => f.otherAgentIds)).toEqual([["a1"]]));
    owned.dispose();
  });
});

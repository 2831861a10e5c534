/**
 * Attack class: the collision guard fooled by another name for the same file. It compared real
 * paths, so a hard link (`ln src/App.tsx alias.tsx`: two paths, one inode) let agent 2 edit the
 * file agent 1 is editing without a word, and so did a dangling symlink to a file agent 1 is
 * creating (the link's own name was compared, not where it leads). Now files are one file when
 * their device and inode are, and a dangling link is followed to the file it will create.
 * Also: the guard's own `git status` runs in the extension host, outside any sandbox; in a
 * repository an agent planted (`sub/.git` whose config sets core.fsmonitor) it must not run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeCollisionDisk } from "../../../src/core/collisions/collisionDisk";
import { CollisionGuard } from "../../../src/core/collisions/collisionGuard";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const repo = () => committedRepo(tempDir());

describe.skipIf(process.platform === "win32")("another name for the file another agent edits still collides", () => {
  it("a hard link: two paths, one file", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    linkSync(join(root, "src", "App.tsx"), join(root, "alias.tsx"));
    expect(await guard.beforeEdit("a1", "t1", join(root, "src", "App.tsx"))).toBeUndefined();
    expect((await guard.beforeEdit("a2", "t2", join(root, "alias.tsx")))?.others).toEqual([{ agentId: "a1", now: true }]);
  });

  it("a hard link to a file another agent changed earlier and has not committed", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const app = join(root, "src", "App.tsx");
    await guard.beforeEdit("a1", "t1", app);
    writeFileSync(app, "export const app = 2;\n");
    guard.afterEdit("a1", "t1", true);
    linkSync(app, join(root, "alias.tsx"));
    expect((await guard.beforeEdit("a2", "t2", join(root, "alias.tsx")))?.others).toEqual([{ agentId: "a1", now: false }]);
  });

  it("a dangling symlink to a file another agent is creating", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    symlinkSync(join("src", "New.tsx"), join(root, "later.tsx"));
    expect(await guard.beforeEdit("a1", "t1", join(root, "src", "New.tsx"))).toBeUndefined();
    const collision = await guard.beforeEdit("a2", "t2", join(root, "later.tsx"));
    expect(collision).toEqual({ path: join(root, "src", "New.tsx"), others: [{ agentId: "a1", now: true }] });
  });

  it("control: a copy is another file", async () => {
    const root = repo();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    writeFileSync(join(root, "copy.tsx"), "export const app = 1;\n");
    await guard.beforeEdit("a1", "t1", join(root, "src", "App.tsx"));
    expect(await guard.beforeEdit("a2", "t2", join(root, "copy.tsx"))).toBeUndefined();
  });
});

describe.skipIf(process.platform === "win32")("the guard's own git never runs in a repository an agent planted", () => {
  it("sub/.git with core.fsmonitor: no git there (the file counts as uncommitted)", async () => {
    const root = repo();
    const outside = tempDir();
    const marker = join(outside, "MARKER");
    const sub = join(root, "sub");
    mkdirSync(sub);
    git(sub, "init", "-q");
    writeFileSync(join(sub, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ${marker}; true\n`);
    writeFileSync(join(sub, "x.ts"), "x\n");
    execFileSync("git", ["status"], { cwd: sub, stdio: "ignore", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } });
    expect(existsSync(marker), "git status there runs the planted program").toBe(true);
    execFileSync("rm", [marker]);

    const disk = nodeCollisionDisk(() => [root]);
    expect(await disk.uncommitted(join(sub, "x.ts"))).toBe(true);
    expect(existsSync(marker)).toBe(false);
    // Control: in the workspace's own repository git does run, and a committed file is committed.
    expect(await disk.uncommitted(join(root, "src", "App.tsx"))).toBe(false);
  });
});

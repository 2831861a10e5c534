/**
 * Attack class: a workspace folder that is not a clone but an unpacked archive laid out so that
 * git takes its root for a repository: HEAD, config, objects/ and refs/ at the root itself (no
 * `.git`), or a `.git` *file* saying `gitdir: meta` with `meta/` shipped beside it. `git status`
 * and `git diff` there run that config's `core.fsmonitor`. The nested-repository check looked only
 * below the root. Each attack is shown to work with plain git first (its marker appears), then
 * through Arcadia, which asks (answered Deny): the marker stays absent. Controls: an ordinary
 * clone, and a linked worktree of it (a `.git` file leading into the clone's own `.git`), run
 * `git status` unasked.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const hasGit = spawnSync("git", ["--version"]).status === 0;
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, stdio: "pipe" });

const marker = () => join(h.outside, "MARKER");

/** A git directory's files at `dir`, whose config runs the marker on `git status`. */
function gitDirectoryAt(dir: string): void {
  mkdirSync(join(dir, "objects"), { recursive: true });
  mkdirSync(join(dir, "refs", "heads"), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ${h.workspace}\n\tfsmonitor = touch ${marker()}; true\n`);
}

function attackWorksUnprotected(): void {
  spawnSync("git", ["status"], { cwd: h.workspace, env: gitEnv, stdio: "ignore" });
  expect(existsSync(marker()), "plain git status at the root runs the hostile fsmonitor").toBe(true);
  rmSync(marker());
}

describe.skipIf(!hasGit || process.platform === "win32")("a workspace root git would take for a repository it did not clone asks", () => {
  it("the root itself laid out as a git directory (HEAD, config, objects/, refs/; no .git)", async () => {
    h = await startPolicyHarness();
    gitDirectoryAt(h.workspace);
    attackWorksUnprotected();
    for (const command of ["git status", "git diff"]) {
      const { body } = await h.call("execute_command", { command });
      expect(body.status, command).toBe("denied");
    }
    expect(h.asked[0]?.reason).toMatch(new RegExp(`shaped like a git directory \\(${h.workspace}:`));
    expect(h.runner.started).toEqual([]);
    expect(existsSync(marker())).toBe(false);
  });

  it("a .git file at the root saying `gitdir: meta`, meta/ shipped in the folder", async () => {
    h = await startPolicyHarness();
    gitDirectoryAt(join(h.workspace, "meta"));
    writeFileSync(join(h.workspace, ".git"), "gitdir: meta\n");
    attackWorksUnprotected();
    const { body } = await h.call("execute_command", { command: "git status" });
    expect(body.status).toBe("denied");
    expect(h.asked[0]?.reason).toContain(`leads to ${join(h.workspace, "meta")}, a repository inside the workspace that is not the workspace's own`);
    expect(existsSync(marker())).toBe(false);
  });
});

describe.skipIf(!hasGit || process.platform === "win32")("controls: the user's own clone and its worktrees run git status unasked", () => {
  it("an ordinary clone, and a linked worktree under .claude/worktrees", async () => {
    h = await startPolicyHarness();
    git(h.workspace, "init", "-q", "-b", "main");
    writeFileSync(join(h.workspace, "a.txt"), "a\n");
    git(h.workspace, "add", ".");
    git(h.workspace, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first");
    git(h.workspace, "worktree", "add", "-q", join(".claude", "worktrees", "w1"), "-b", "worktree-w1");
    expect((await h.call("execute_command", { command: "git status" })).body.status).toBe("completed");
    const inWorktree = await h.call("execute_command", { command: "git status", cwd: ".claude/worktrees/w1" });
    expect(inWorktree.body).toMatchObject({ status: "completed" });
    expect(inWorktree.body.output).toContain("On branch worktree-w1");
    expect(h.asked).toEqual([]);
  });
});

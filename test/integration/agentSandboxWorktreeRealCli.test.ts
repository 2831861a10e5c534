/**
 * A worktree agent in Claude Code's own sandbox, with the real CLI (2.1.332) in the rig and the
 * settings Arcadia writes for it (core/agentSandbox, the code under test: its writable folder is the
 * worktree alone). The agent works in `.claude/worktrees/<name>`, whose git folders live in the main
 * checkout's `.git`, outside that folder; the CLI's sandbox finds them itself (docs/cli-sandbox.md):
 * - git works there as it does in the main checkout: status, diff and log unasked; add and commit
 *   (which the CLI asks about even sandboxed, in any checkout) once the user allowed them, run in the
 *   sandbox and land on the worktree's own branch;
 * - what would run later, outside any sandbox, stays out of its reach with nobody asked: the main
 *   checkout's files, its `.git/config` and hooks, the worktree's `.git` pointer, and the files that
 *   tell git where the worktree's repository and config are (`commondir`, `gitdir`, `config.worktree`):
 *   refused, or (the CLI's "sensitive file") asked, and never written.
 * Needs bubblewrap and socat (.ci/run installs both); elsewhere the suite skips with the reason.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSandboxSettings, readUserSandboxSettings, toolchainFolders } from "../../src/core/agentSandbox";
import { createWorktree } from "../../src/core/git";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { bashConversation, runBashSession, type BashCall } from "../support/bashSessions";
import { realCliSandboxAvailable } from "../support/realCli";

const SUITE = "a worktree agent in the CLI's sandbox, with the real CLI";
const available = realCliSandboxAvailable(SUITE);

const GIT_WORK: BashCall[] = [
  { name: "status", command: "git status --short --branch" },
  { name: "new-file", command: "echo notes > notes.txt" },
  { name: "status-after", command: "git status --short" },
  { name: "log", command: "git log --oneline -n 1" },
  { name: "add", command: "git add notes.txt" },
  { name: "commit", command: "git -c user.email=a@a -c user.name=agent commit -qm 'Agent change'" },
  { name: "log-after", command: "git log --format=%s -n 1" },
];
/** The user's "always allow" for the two git commands the CLI asks about even in its sandbox. */
const ALLOWED_GIT = { permissions: { allow: ["Bash(git add:*)", "Bash(git -c user.email=a@a -c user.name=agent commit:*)"] } };
/** `$MAIN` is the main checkout, `$WT` the worktree's git folder inside it (filled in by the test). */
const ATTACKS: BashCall[] = [
  { name: "write-main-file", command: "echo pwned > $MAIN/app.js" },
  { name: "write-main-config", command: "git config -f $MAIN/.git/config core.fsmonitor 'touch /tmp/fsmonitor-ran'" },
  { name: "write-main-hook", command: "echo 'touch /tmp/hook-ran' > $MAIN/.git/hooks/post-checkout && chmod +x $MAIN/.git/hooks/post-checkout" },
  { name: "repoint-git-file", command: "echo 'gitdir: /tmp/evil' > .git" },
  { name: "repoint-commondir", command: "echo /tmp/evil > $WT/commondir" },
  { name: "write-worktree-config", command: "printf '[core]\\n\\tfsmonitor = touch /tmp/wt-config-ran\\n' > $WT/config.worktree" },
];

describe.skipIf(!available)(SUITE, () => {
  let rig: Rig;
  let worktree: string;
  let wtGitDir: string;
  let sandbox: object;
  let mainHead: string;

  beforeAll(async () => {
    rig = await createRig({
      script: (where) => {
        const main = where.workspace;
        const fill = (calls: BashCall[]) =>
          calls.map((c) => ({ ...c, command: c.command.replaceAll("$MAIN", main).replaceAll("$WT", join(main, ".git", "worktrees", "fix")) }));
        return { conversations: [bashConversation("git", GIT_WORK, where), bashConversation("attacks", fill(ATTACKS), where)] };
      },
      files: { "app.js": "export const title = 1;\n", ".gitignore": "/.claude/worktrees/\n" },
    });
    execFileSync("sh", ["-c", "git init -q -b main && git add -A && git -c user.email=t@t -c user.name=t commit -qm init"], { cwd: rig.workspace });
    mainHead = execFileSync("git", ["rev-parse", "main"], { cwd: rig.workspace, encoding: "utf8" }).trim();
    worktree = (await createWorktree(rig.workspace, "fix")).path;
    wtGitDir = join(rig.workspace, ".git", "worktrees", "fix");
    const home = rig.rigHome.home;
    const settings = agentSandboxSettings({
      choice: "on",
      agentFolder: worktree,
      home,
      allowedDomains: [],
      readableFolders: await toolchainFolders(process.env.PATH ?? ""),
      user: await readUserSandboxSettings(home, worktree),
    });
    sandbox = { sandbox: settings };
  });
  afterAll(async () => rig?.dispose());

  it("git works in the worktree: status and log unasked, an allowed commit runs in the sandbox and lands on its own branch", async () => {
    const run = await runBashSession(rig, "git", { ...sandbox, ...ALLOWED_GIT }, {}, worktree);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.asked.map((a) => a.tool_input.command)).toEqual([]);
    const text = (name: string) => run.results.get(name)?.text ?? "(never ran)";
    expect(text("status")).toContain("## worktree-fix");
    expect(text("status-after")).toContain("?? notes.txt");
    expect(text("log")).toContain("init");
    expect(run.results.get("commit")?.isError, text("commit")).toBe(false);
    expect(text("log-after")).toContain("Agent change");
    const log = execFileSync("git", ["log", "--format=%s", "-n", "1", "worktree-fix"], { cwd: rig.workspace, encoding: "utf8" });
    expect(log.trim()).toBe("Agent change");
    // The main checkout is as it was: its branch and its file.
    expect(execFileSync("git", ["rev-parse", "main"], { cwd: rig.workspace, encoding: "utf8" }).trim()).toBe(mainHead);
    expect(readFileSync(join(rig.workspace, "app.js"), "utf8")).toBe("export const title = 1;\n");
  });

  it("what would run later outside any sandbox is never written: refused unasked, or asked as a sensitive file", async () => {
    const before = {
      config: readFileSync(join(rig.workspace, ".git", "config"), "utf8"),
      gitFile: readFileSync(join(worktree, ".git"), "utf8"),
      commondir: readFileSync(join(wtGitDir, "commondir"), "utf8"),
    };
    const run = await runBashSession(rig, "attacks", sandbox, {}, worktree);
    expect(run.exitCode, run.stderr).toBe(0);
    // The CLI puts a write of config.worktree to the user ("a sensitive file"); every other attempt is refused with nobody asked.
    expect.soft(run.asked.map((a) => a.tool_input.description)).toEqual(["write-worktree-config"]);
    expect.soft(run.results.get("write-worktree-config")?.text).toMatch(/sensitive file/);
    expect.soft(readFileSync(join(rig.workspace, "app.js"), "utf8")).toBe("export const title = 1;\n");
    expect.soft(readFileSync(join(rig.workspace, ".git", "config"), "utf8")).toBe(before.config);
    expect.soft(existsSync(join(rig.workspace, ".git", "hooks", "post-checkout"))).toBe(false);
    expect.soft(readFileSync(join(worktree, ".git"), "utf8")).toBe(before.gitFile);
    expect.soft(readFileSync(join(wtGitDir, "commondir"), "utf8")).toBe(before.commondir);
    expect.soft(existsSync(join(wtGitDir, "config.worktree")) && readFileSync(join(wtGitDir, "config.worktree"), "utf8")).toBeFalsy();
    // And git still reads the worktree as it did.
    expect(execFileSync("git", ["status", "--short", "--branch"], { cwd: worktree, encoding: "utf8" })).toContain("worktree-fix");
  });
});

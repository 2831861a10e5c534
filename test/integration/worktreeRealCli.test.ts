/**
 * What the real CLI 2.1.330 does with a worktree, checked before Arcadia builds on it:
 * - `claude --worktree <name>` makes `.claude/worktrees/<name>` on branch `worktree-<name>` and runs
 *   there, locks the worktree while its session runs, writes the transcript under the worktree's
 *   own project folder, and its status file's cwd is the worktree; a repository already trusted
 *   asks nothing more;
 * - Arcadia's form (core/git/worktreeCreate.ts, then `claude` started with the worktree as its
 *   folder) gives the same layout, the same project folder and cwd, no lock, and the base kept.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createWorktree, worktreeOf } from "../../src/core/git/worktreeCreate";
import { mergeWorktree, planMerge } from "../../src/core/git/worktreeMerge";
import { removeWorktree } from "../../src/core/git/worktreeRemoval";
import { projectSlug } from "../../src/core/transcript/projectDir";
import { createRig, type Rig } from "../rig/claude-rig.js";
import type { InteractiveSession } from "../rig/interactive.js";
import { realCliAvailable } from "../support/realCli";
import { CLAUDE_CODE_VERSION } from "../rig/cli-binary";

const available = realCliAvailable("worktrees with the real CLI");
const facts: string[] = [];
const edit = (file: string, to: string) => ({ name: "Edit", input: { file_path: file, old_string: "x = 0", new_string: `x = ${to}` } });

describe.skipIf(!available)("worktrees with the real CLI", () => {
  let rig: Rig;
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });
  const treeOf = (name: string) => join(rig.workspace, ".claude", "worktrees", name);

  beforeAll(async () => {
    rig = await createRig({
      files: { "App.tsx": "export const x = 0;\n" },
      script: ({ workspace }) => ({
        conversations: [
          { match: "Edit in the worktree", steps: [{ tools: [edit(join(workspace, ".claude", "worktrees", "demo", "App.tsx"), "1")] }, { text: "Edited." }] },
          { match: "Edit in mine", steps: [{ tools: [edit(join(workspace, ".claude", "worktrees", "mine", "App.tsx"), "2")] }, { text: "Edited mine." }] },
          { match: "Left edit", steps: [{ tools: [edit(join(workspace, ".claude", "worktrees", "left", "App.tsx"), "3")] }, { text: "Left done." }] },
          { match: "Right edit", steps: [{ tools: [edit(join(workspace, ".claude", "worktrees", "right", "App.tsx"), "4")] }, { text: "Right done." }] },
        ],
      }),
    });
    git(rig.workspace, "init", "-q", "-b", "main");
    git(rig.workspace, "add", "-A");
    git(rig.workspace, "commit", "-q", "-m", "base");
    // Merge commits the agents' changes as the user would: with an identity.
    process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
  });
  afterAll(async () => {
    await rig?.dispose();
    if (facts.length) console.log(`worktrees, CLI ${CLAUDE_CODE_VERSION} (this machine):\n  ${facts.join("\n  ")}`);
  });

  /** The session's transcript and status file, wherever the CLI put them. */
  function whereItWrote(s: InteractiveSession): { transcriptFolder: string | undefined; statusCwd: string | undefined } {
    const projects = join(rig.home, ".claude", "projects");
    const transcriptFolder = readdirSync(projects).find((dir) => existsSync(join(projects, dir, `${s.sessionId}.jsonl`)));
    const statuses = readdirSync(s.sessionsDir())
      .filter((f) => /^\d+\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(join(s.sessionsDir(), f), "utf8")) as { sessionId?: string; cwd?: string });
    return { transcriptFolder, statusCwd: statuses.find((st) => st.sessionId === s.sessionId)?.cwd };
  }

  it("claude --worktree: .claude/worktrees/<name> on worktree-<name>, locked while it runs; transcript and cwd are the worktree's", async () => {
    const s = await rig.startInteractive({ args: ["--worktree", "demo", "--permission-mode", "acceptEdits"] });
    await s.submit("Edit in the worktree");
    await s.waitForScreen(/Edited\./, 30_000);
    await s.waitForIdle();
    const list = git(rig.workspace, "worktree", "list", "--porcelain");
    const where = whereItWrote(s);
    facts.push(`--worktree: ${JSON.stringify(where)}; lock: ${/locked (.*)/.exec(list)?.[1] ?? "none"}`);
    expect(list).toContain(`worktree ${treeOf("demo")}\nHEAD `);
    expect(list).toContain("branch refs/heads/worktree-demo\nlocked claude session demo");
    expect(where).toEqual({ transcriptFolder: projectSlug(treeOf("demo")), statusCwd: treeOf("demo") });
    expect(readFileSync(join(treeOf("demo"), "App.tsx"), "utf8")).toBe("export const x = 1;\n");
    expect(readFileSync(join(rig.workspace, "App.tsx"), "utf8")).toBe("export const x = 0;\n");
    await s.dispose();
  });

  it("Arcadia's form: the same layout, project folder and cwd, no lock, and the base kept for merge", async () => {
    const made = await createWorktree(rig.workspace, "mine");
    expect(made.path).toBe(treeOf("mine"));
    const s = await rig.startInteractive({ cwd: made.path, args: ["--permission-mode", "acceptEdits"] });
    await s.submit("Edit in mine");
    await s.waitForScreen(/Edited mine\./, 30_000);
    await s.waitForIdle();
    const where = whereItWrote(s);
    facts.push(`Arcadia's form: ${JSON.stringify(where)}`);
    expect(where).toEqual({ transcriptFolder: projectSlug(made.path), statusCwd: made.path });
    expect(git(rig.workspace, "worktree", "list", "--porcelain")).not.toMatch(/worktrees\/mine\nHEAD \w+\nbranch refs\/heads\/worktree-mine\nlocked/);
    expect(await worktreeOf(made.path)).toEqual({ path: made.path, branch: "worktree-mine", base: "main", repo: rig.workspace });
    expect(readFileSync(join(made.path, "App.tsx"), "utf8")).toBe("export const x = 2;\n");
    await s.dispose();
  });

  it("two agents edit one line differently in their worktrees: the first merges cleanly into main, the second's conflict is predicted and the main checkout stays byte-identical; remove asks before dropping work", async () => {
    const left = await createWorktree(rig.workspace, "left");
    const right = await createWorktree(rig.workspace, "right");
    for (const [tree, prompt, done] of [
      [left, "Left edit", /Left done\./],
      [right, "Right edit", /Right done\./],
    ] as const) {
      const s = await rig.startInteractive({ cwd: tree.path, args: ["--permission-mode", "acceptEdits"] });
      await s.submit(prompt);
      await s.waitForScreen(done, 30_000);
      await s.waitForIdle();
      await s.dispose();
    }
    const request = (t: typeof left) => ({ repo: rig.workspace, worktree: t.path, branch: t.branch, base: t.base });
    expect(await mergeWorktree(request(left), "x is 3")).toMatchObject({ merged: true, committed: true, files: ["App.tsx"] });
    expect(git(rig.workspace, "show", "main:App.tsx")).toBe("export const x = 3;\n");

    const hash = () =>
      createHash("sha256")
        .update(readFileSync(join(rig.workspace, "App.tsx")))
        .digest("hex");
    const before = { status: git(rig.workspace, "status", "--porcelain"), head: git(rig.workspace, "rev-parse", "HEAD"), file: hash() };
    expect(await planMerge(request(right))).toMatchObject({ ok: false, conflicts: ["App.tsx"] });
    expect(await mergeWorktree(request(right), "x is 4")).toMatchObject({ merged: false, conflicts: ["App.tsx"] });
    expect({ status: git(rig.workspace, "status", "--porcelain"), head: git(rig.workspace, "rev-parse", "HEAD"), file: hash() }).toEqual(before);

    // The right agent's edit is uncommitted: removing asks; the merged left one goes with its branch.
    expect(await removeWorktree(rig.workspace, right.path, "main", "")).toEqual({ removed: false, wouldLose: "1 uncommitted file (App.tsx)" });
    expect(readFileSync(join(right.path, "App.tsx"), "utf8")).toBe("export const x = 4;\n");
    expect(await removeWorktree(rig.workspace, left.path, "main", "")).toEqual({ removed: true, branchDeleted: true });
    expect(git(rig.workspace, "branch", "--list", "worktree-left")).toBe("");
  });
});

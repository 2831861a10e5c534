/**
 * What the real CLI 2.1.330 does with `claude --worktree <name>`, checked before Arcadia builds on
 * it: where the worktree and its branch go, which project folder gets the transcript, what the
 * status file says, and whether an interactive run in a trusted repository asks again.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("claude --worktree with the real CLI");
const facts: string[] = [];

describe.skipIf(!available)("claude --worktree (real CLI)", () => {
  let rig: Rig;
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });

  beforeAll(async () => {
    rig = await createRig({
      files: { "App.tsx": "export const x = 0;\n" },
      script: ({ workspace }) => ({
        conversations: [
          { match: "Edit in the worktree", steps: [{ tools: [{ name: "Edit", input: { file_path: join(workspace, ".claude", "worktrees", "demo", "App.tsx"), old_string: "x = 0", new_string: "x = 1" } }] }, { text: "Edited." }] },
          { match: "Edit in mine", steps: [{ tools: [{ name: "Edit", input: { file_path: join(workspace, ".claude", "worktrees", "mine", "App.tsx"), old_string: "x = 0", new_string: "x = 2" } }] }, { text: "Edited mine." }] },
        ],
      }),
    });
    git(rig.workspace, "init", "-q", "-b", "main");
    git(rig.workspace, "add", "-A");
    git(rig.workspace, "commit", "-q", "-m", "base");
  });
  afterAll(async () => {
    await rig?.dispose();
    console.log(`claude --worktree, CLI 2.1.330 (this machine):\n  ${facts.join("\n  ")}`);
  });

  it("creates .claude/worktrees/<name> on branch worktree-<name> and runs there", async () => {
    const s = await rig.startInteractive({ args: ["--worktree", "demo", "--permission-mode", "acceptEdits"] });
    const tree = join(rig.workspace, ".claude", "worktrees", "demo");
    facts.push(`worktree folder exists: ${existsSync(tree)}`);
    facts.push(`git worktree list:\n${git(rig.workspace, "worktree", "list", "--porcelain")}`);
    await s.submit("Edit in the worktree");
    await s.waitForScreen(/Edited\./, 30_000);
    await s.waitForIdle();
    facts.push(`screen:\n${s.screen.text()}`);
    const projects = join(rig.home, ".claude", "projects");
    facts.push(`project folders: ${readdirSync(projects).join(", ")}`);
    for (const dir of readdirSync(projects)) facts.push(`  ${dir}: ${readdirSync(join(projects, dir)).join(", ")}`);
    const sessions = s.sessionsDir();
    for (const f of existsSync(sessions) ? readdirSync(sessions) : []) facts.push(`status ${f}: ${readFileSync(join(sessions, f), "utf8")}`);
    facts.push(`App.tsx in the main checkout: ${JSON.stringify(readFileSync(join(rig.workspace, "App.tsx"), "utf8"))}, in the worktree: ${JSON.stringify(readFileSync(join(tree, "App.tsx"), "utf8"))}`);
    facts.push(`main checkout status: ${JSON.stringify(git(rig.workspace, "status", "--porcelain"))}`);
    await s.dispose();
    expect(existsSync(tree)).toBe(true);
  });

  it("Arcadia's form: git worktree add, then claude started in it", async () => {
    const tree = join(rig.workspace, ".claude", "worktrees", "mine");
    git(rig.workspace, "worktree", "add", "-q", "-b", "worktree-mine", tree);
    const s = await rig.startInteractive({ cwd: tree, args: ["--permission-mode", "acceptEdits"] });
    await s.submit("Edit in mine");
    await s.waitForScreen(/Edited mine\./, 30_000);
    await s.waitForIdle();
    const projects = join(rig.home, ".claude", "projects");
    facts.push(`Arcadia's form: project folders: ${readdirSync(projects).join(", ")}`);
    for (const dir of readdirSync(projects)) facts.push(`  ${dir}: ${readdirSync(join(projects, dir)).join(", ")}`);
    const sessions = s.sessionsDir();
    for (const f of existsSync(sessions) ? readdirSync(sessions) : []) facts.push(`status ${f}: ${readFileSync(join(sessions, f), "utf8")}`);
    facts.push(`Arcadia's form: worktree App.tsx ${JSON.stringify(readFileSync(join(tree, "App.tsx"), "utf8"))}`);
    await s.dispose();
  });
});

/**
 * Issue 31, item 4: what an unasked command leaves behind is looked at. A prompt-injected
 * `npm test` cannot write an existing `.git` (read-only), so it makes a new repository instead —
 * `sub/.git` with core.fsmonitor, or a `.git` file leading to a bare layout of its own — whose
 * program runs at the next `git status` there (VS Code's Git, or the user). Weakened (nothing
 * looked at afterwards) it stays unnoticed; with Arcadia's sandbox the user is asked, in plain
 * words, before the agent goes on, with Remove and Keep (Keep the default): Remove removes it, Keep keeps it. The control (a command that
 * makes ordinary folders) asks nothing.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, type CommandSandbox } from "../../../src/core/sandbox";
import { committedRepo } from "../../support/gitRepo";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

vi.setConfig({ testTimeout: 60_000 });

let h: PolicyHarness;
afterEach(async () => h?.close());

const available = process.platform === "linux" && (await sandboxAvailable("what a command leaves behind"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

const PLANT_NESTED = "mkdir -p sub/.git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > sub/.git/config";
const PLANT_BARE =
  "git init -q --bare .mine && mkdir tree && echo 'gitdir: ../.mine' > tree/.git && mkdir -p .mine/hooks && echo x > .mine/hooks/post-checkout";

async function run(script: string, sandbox: CommandSandbox, answer: "allow" | "deny" = "deny") {
  h = await startPolicyHarness();
  committedRepo(h.workspace);
  h.ports.sandbox = sandbox;
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: `${script} && echo CONTROL-RAN` } }));
  h.answerApprovals(answer);
  return (await h.call("execute_command", { command: "npm test" })).body;
}

const weakened = (): CommandSandbox => {
  const real = new BubblewrapSandbox({ settings });
  return { settings, availability: () => real.availability(), launch: async (w) => ({ ...(await real.launch(w)), leftBehind: async () => [] }) };
};

describe.skipIf(!available)("a repository made by an unasked command", () => {
  it("weakened (nothing looked at afterwards): sub/.git with core.fsmonitor stays, unnoticed — the test can fail", async () => {
    const body = await run(PLANT_NESTED, weakened());
    expect(h.asked).toEqual([]);
    expect(body.output).toContain("CONTROL-RAN");
    expect(existsSync(join(h.workspace, "sub", ".git", "config"))).toBe(true);
  });

  it("the user is asked in plain words, Remove or Keep; Remove removes it", async () => {
    const body = await run(PLANT_NESTED, new BubblewrapSandbox({ settings }), "allow");
    expect(h.asked.map((a) => a.reason)).toEqual([
      "the agent's command created sub/.git with core.fsmonitor, a program git would run. Remove deletes it; Keep leaves it as it is",
    ]);
    expect(h.asked[0]).toMatchObject({
      kind: "path",
      subject: expect.stringMatching(/\/sub\/\.git$/),
      wording: { allow: "Remove", deny: "Keep", harmless: "deny" },
    });
    expect(existsSync(join(h.workspace, "sub", ".git"))).toBe(false);
    expect(body.left_behind).toEqual(["created sub/.git with core.fsmonitor, a program git would run (removed by the user)"]);
  });

  it("a .git file leading to a bare layout of its own, with a hook; Keep keeps it", async () => {
    const body = await run(PLANT_BARE, new BubblewrapSandbox({ settings }), "deny");
    expect(h.asked.map((a) => a.reason)).toEqual([expect.stringContaining("created tree/.git with hooks git runs on commit and checkout (post-checkout)")]);
    expect(existsSync(join(h.workspace, "tree", ".git"))).toBe(true);
    expect(body.left_behind).toEqual([expect.stringContaining("(kept by the user)")]);
  });

  it("control: ordinary folders ask nothing", async () => {
    const body = await run("mkdir -p src/made && echo x > src/made/file.txt", new BubblewrapSandbox({ settings }));
    expect(h.asked).toEqual([]);
    expect(body.output).toContain("CONTROL-RAN");
    expect(body.left_behind).toBeUndefined();
  });

  it("a missing protected file it made (.mcp.json: MCP servers the CLI starts) is asked about too", async () => {
    await run(`echo '{"mcpServers":{}}' > .mcp.json`, new BubblewrapSandbox({ settings }), "allow");
    expect(h.asked.map((a) => a.reason)).toEqual([
      "the agent's command created .mcp.json, MCP servers Claude Code starts. Remove deletes it; Keep leaves it as it is",
    ]);
    expect(existsSync(join(h.workspace, ".mcp.json"))).toBe(false);
  });
});

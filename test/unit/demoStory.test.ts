/**
 * The demo story's script against real git, without the CLI: the demo workspace becomes a
 * repository with one commit; the two worktree agents' edits and commands (as the script gives
 * them) make the second merge conflict where the story says, and the rebase replies resolve it so
 * it merges. Plus the two things of the scripted model the story needs: a reply chosen by the
 * latest prompt (the rebase request typed into a running conversation) and `{{cwd}}` filled in
 * with each agent's own folder.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoScript } from "../../scripts/demo/demoModel";
import { makeDemoRepository } from "../../scripts/demo/demoRepository";
import { GREETING, REBASE_REQUEST, storyAgents } from "../../scripts/demo/demoStory";
import { createWorktree } from "../../src/core/git/worktreeCreate";
import { planMerge, mergeWorktree } from "../../src/core/git/worktreeMerge";
import { startModelServer } from "../rig/model-server";
import { selectReply, type MessagesRequestBody, type Step, type ToolCall } from "../rig/script";

type Message = { role: string; content: unknown };
const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const toolUse = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] });
const toolResult = (id: string): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] });
const reply = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const body = (messages: Message[], cwd = "/w"): MessagesRequestBody => ({
  system: [{ type: "text", text: `Here is useful information about the environment:\nPrimary working directory: ${cwd}\nIs a git repository: true` }],
  messages,
  tools: [{ name: "Bash" }],
});

const demo = demoScript(new Date(2026, 10, 26, 15, 20));
const [welcome, shout] = storyAgents();

/** The steps the script gives a conversation from its prompt on, as the CLI would walk them (each tool answered). */
function walk(first: Message[], cwd: string): Step[] {
  const steps: Step[] = [];
  let messages = first;
  for (let i = 0; i < 12; i++) {
    const selection = selectReply(demo, body(messages, cwd));
    if (selection.kind !== "step") break;
    steps.push(selection.step);
    if (!("tools" in selection.step)) break;
    messages = [...messages, toolUse(`t${i}`), toolResult(`t${i}`)];
  }
  return steps;
}

const tools = (steps: Step[]): ToolCall[] => steps.flatMap((s) => ("tools" in s ? s.tools : []));

describe("the scripted model, for the story", () => {
  it("answers a request typed into a running conversation by that request, from its first step", () => {
    const asked = [prompt(shout!.prompt), reply("Committed."), prompt(`${REBASE_REQUEST} worktree-shout onto main and resolve the conflicts in src/greet.ts`)];
    const selection = selectReply(demo, body(asked));
    expect(selection).toMatchObject({ kind: "step", index: 0 });
    expect(tools([(selection as { step: Step }).step]).map((t) => (t.input as { command?: string }).command)).toEqual(["git rebase main"]);
  });

  it("puts each agent's own folder into the paths it edits", async () => {
    const server = await startModelServer({ script: demo });
    try {
      const res = await fetch(`${server.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body([prompt(welcome!.prompt)], "/home/u/tiny-greeter/.claude/worktrees/welcome"), stream: false }),
      });
      const message = (await res.json()) as { content: { type: string; input?: { file_path?: string } }[] };
      expect(message.content.find((b) => b.type === "tool_use")?.input?.file_path).toBe("/home/u/tiny-greeter/.claude/worktrees/welcome/src/greet.ts");
    } finally {
      await server.close();
    }
  });
});

describe("the story in a real git repository", () => {
  let root: string;
  let repo: string;
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });

  /** What the script's tools do, done with fs and git: Edit, Write and the Bash commands. */
  function act(cwd: string, calls: ToolCall[]): void {
    for (const call of calls) {
      const input = call.input as Record<string, string>;
      const path = input.file_path?.replace("{{cwd}}", cwd);
      if (call.name === "Edit") writeFileSync(path!, readFileSync(path!, "utf8").replace(input.old_string!, input.new_string!));
      else if (call.name === "Write") writeFileSync(path!, input.content!);
      else if (call.name === "Bash") {
        try {
          execFileSync("bash", ["-c", input.command!], {
            cwd,
            stdio: "pipe",
            env: { PATH: process.env.PATH ?? "", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
          });
        } catch (err) {
          // `git rebase main` stops at the conflict with a failure, as it does for the agent.
          if (!input.command!.startsWith("git rebase main")) throw err;
        }
      }
    }
  }

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "demo-story-")));
    repo = join(root, "tiny-greeter");
    cpSync(join(__dirname, "..", "..", "demo", "workspace"), repo, { recursive: true });
    makeDemoRepository(repo);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("starts as a repository on main with one commit, nothing uncommitted and the worktrees folder ignored", () => {
    expect(git(repo, "branch", "--show-current").trim()).toBe("main");
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("1");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "check-ignore", ".claude/worktrees/x/file").trim()).toBe(".claude/worktrees/x/file");
  });

  it("merges the first agent's commit clean; the second conflicts in src/greet.ts until its rebase replies resolve it", async () => {
    const first = await createWorktree(repo, welcome!.worktree!);
    const second = await createWorktree(repo, shout!.worktree!);
    act(first.path, tools(walk([prompt(welcome!.prompt)], first.path)));
    act(second.path, tools(walk([prompt(shout!.prompt)], second.path)));
    expect(git(first.path, "status", "--porcelain")).toBe("");
    expect(git(second.path, "log", "-1", "--format=%s").trim()).toBe("Make the greeting louder");

    const request = (tree: typeof first) => ({ repo, worktree: tree.path, branch: tree.branch, base: tree.base });
    expect(await mergeWorktree(request(first), "")).toMatchObject({ merged: true });
    expect(readFileSync(join(repo, "src", "greet.ts"), "utf8")).toContain(GREETING.warmer);
    expect(await planMerge(request(second))).toMatchObject({ ok: false, conflicts: ["src/greet.ts"] });

    const asked = [
      prompt(shout!.prompt),
      reply("Committed."),
      prompt(`${REBASE_REQUEST} ${second.branch} onto main and resolve the conflicts in src/greet.ts`),
    ];
    act(second.path, tools(walk(asked, second.path)));
    expect(git(second.path, "status", "--porcelain")).toBe("");
    expect(await mergeWorktree(request(second), "")).toMatchObject({ merged: true });
    expect(readFileSync(join(repo, "src", "greet.ts"), "utf8")).toContain(GREETING.both);
    expect(git(repo, "log", "--format=%s", "main")).toMatch(/Make the greeting louder[\s\S]*Make the greeting warmer/);
  });
});

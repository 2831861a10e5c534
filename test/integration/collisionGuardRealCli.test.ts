/**
 * The collision guard with the real CLI 2.1.330 and real git: two agents in one checkout, each
 * with Arcadia's own hook file (curl + sh, as launched from VS Code), Arcadia's server, broker and
 * guard in this process. Agent 2's Edit of a file agent 1 changed and has not committed brings
 * up Claude Code's own edit prompt, even in acceptEdits mode (where an edit never asks), and the
 * card's prompt says why (CLI 2.1.330 shows no hook reason in its edit prompt); Deny leaves the
 * file as agent 1 left it. With `warn` the edit goes through and both agents share the file.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeCollisionDisk } from "../../src/core/collisions/collisionDisk";
import { CollisionGuard } from "../../src/core/collisions/collisionGuard";
import { type CollisionMode, withCollisionGuard } from "../../src/core/collisions/collisionHooks";
import { PermissionBroker } from "../../src/core/hooks/permissionBroker";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { sharedFileSource } from "../../src/agents/collisions/collisionCards";
import { LiveBoard } from "../../src/agents/cards/liveBoard";
import { ApprovalQueue } from "../../src/core/mcp/approvalQueue";
import { combinedDisposable } from "../../src/core/util";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { type HookedClis, startHookedClis } from "../support/hookedClis";
import { realCliAvailable } from "../support/realCli";
import { waitForChange } from "../support/waitFor";

const available = realCliAvailable("the collision guard with the real CLI");
const EDIT_PROMPT = /Do you want to make this edit to App\.tsx\?/;
const BASE = 'export const title = "base";\nexport const count = 0;\n';
const edit = (file: string, from: string, to: string) => ({ name: "Edit", input: { file_path: file, old_string: from, new_string: to } });

describe.skipIf(!available)("the collision guard (real CLI, real git)", () => {
  let rig: Rig;
  let clis: HookedClis;
  let guard: CollisionGuard;
  let board: LiveBoard;
  let broker: PermissionBroker;
  let shared: ReturnType<typeof sharedFileSource>;
  let mode: CollisionMode = "ask";
  const app = () => join(rig.workspace, "App.tsx");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: rig.workspace, encoding: "utf8" });

  beforeAll(async () => {
    rig = await createRig({
      files: { "App.tsx": BASE },
      script: ({ workspace }) => ({
        conversations: [
          { match: "Change the title", steps: [{ tools: [edit(join(workspace, "App.tsx"), '"base"', '"one"')] }, { text: "Title changed." }] },
          { match: "Change the count", steps: [{ tools: [edit(join(workspace, "App.tsx"), "count = 0", "count = 2")] }, { text: "Count changed." }] },
        ],
      }),
    });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    guard = new CollisionGuard(nodeCollisionDisk(() => [rig.workspace]));
    broker = new PermissionBroker({ log: () => undefined });
    const names: Record<string, string> = { "agent-1": "Agent #1", "agent-2": "Agent #2" };
    const hooks = withCollisionGuard(broker.handleHook, { guard, mode: () => mode, agentName: (id) => names[id] ?? id, log: (m) => console.log(m) });
    const tracker = new ToolCallTracker();
    clis = await startHookedClis(rig, { tracker, hooks });
    shared = sharedFileSource(guard, { agentInfo: (id) => ({ name: names[id] ?? id, cwd: rig.workspace }) });
    board = new LiveBoard({ calls: tracker, approvals: new ApprovalQueue(), permissions: broker, extras: { shared } });
  });

  afterAll(async () => {
    await clis?.dispose();
    await rig?.dispose();
  });

  // acceptEdits: an edit in the workspace never asks, so a prompt can only come from the guard.
  const launch = (agentId: string) => clis.launch(agentId, { args: ["--permission-mode", "acceptEdits"] });

  it("ask: agent 2's edit of the file agent 1 changed brings up Claude Code's edit prompt and the card's prompt says why; Deny leaves agent 1's version", async () => {
    const one = await launch("agent-1");
    await one.submit("Change the title");
    await one.waitForScreen(/Title changed\./, 30_000);
    await one.waitForIdle();
    expect(readFileSync(app(), "utf8")).toBe(BASE.replace('"base"', '"one"'));
    expect(one.screen.text()).not.toMatch(EDIT_PROMPT);

    const two = await launch("agent-2");
    await two.submit("Change the count");
    await two.waitForScreen(EDIT_PROMPT, 30_000);
    // The card: the prompt (Allow / Deny) says why, and both cards name the shared file.
    // Looked at as the card store does: when the permission prompts or the shared files change.
    const changes = (on: () => void) => combinedDisposable(broker.onDidChange(on), shared.onDidChange(on)).dispose;
    const prompt = await waitForChange(changes, () => board.view("agent-2").prompts[0], 10_000, "agent 2's prompt on its card");
    expect(prompt).toMatchObject({ kind: "permission", reason: "Agent #1 also edits App.tsx (changed it, not committed yet)" });
    expect(board.view("agent-1").sharedFiles).toEqual([{ file: "App.tsx", withAgents: ["Agent #2"] }]);
    expect(board.view("agent-2").sharedFiles).toEqual([{ file: "App.tsx", withAgents: ["Agent #1"] }]);
    two.pressEscape();
    await two.waitForIdle();
    expect(readFileSync(app(), "utf8")).toBe(BASE.replace('"base"', '"one"'));
    await one.dispose();
    await two.dispose();
  });

  it("warn: the edit goes through without a prompt, and both agents share the file; once committed, nobody collides", async () => {
    mode = "warn";
    const two = await launch("agent-2");
    await two.submit("Change the count");
    await two.waitForScreen(/Count changed\./, 30_000);
    await two.waitForIdle();
    expect(two.screen.text()).not.toMatch(EDIT_PROMPT);
    expect(readFileSync(app(), "utf8")).toBe('export const title = "one";\nexport const count = 2;\n');
    expect(guard.sharedFiles("agent-2").map((f) => f.otherAgentIds)).toEqual([["agent-1"]]);
    git("commit", "-q", "-am", "both");
    await guard.recheck();
    expect(guard.sharedFiles("agent-2")).toEqual([]);
    await two.dispose();
  });
});

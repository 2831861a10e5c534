/**
 * The collision guard on the hooks: what Claude Code is answered for an edit another agent
 * touches, per `arcadia.collisions`, with a real guard on a real git repository.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeCollisionDisk } from "../../../src/core/collisions/collisionDisk";
import { CollisionGuard } from "../../../src/core/collisions/collisionGuard";
import { type CollisionMode, withCollisionGuard } from "../../../src/core/collisions/collisionHooks";
import type { HookEventName, HookInput } from "../../../src/core/server";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

function setup(mode: CollisionMode) {
  const root = tempDir();
  execFileSync("git", ["init", "-q", root]);
  writeFileSync(join(root, "App.tsx"), "a\n");
  const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
  const seen: string[] = [];
  let current = mode;
  const hooks = withCollisionGuard((request) => (seen.push(`${request.agentId}:${request.input.hook_event_name}`), {}), {
    guard,
    mode: () => current,
    agentName: (id) => ({ a1: "Agent #1", a2: "Agent #2" })[id] ?? id,
    log: () => undefined,
  });
  const send = async (
    agentId: string,
    hook_event_name: HookEventName,
    tool_use_id: string,
    tool_name = "Edit",
    file = "App.tsx",
    extra: Record<string, unknown> = {},
  ) => {
    const input: HookInput = {
      hook_event_name,
      session_id: `s-${agentId}`,
      cwd: root,
      tool_name,
      tool_use_id,
      tool_input: { file_path: join(root, file), old_string: "a", new_string: "b" },
      ...extra,
    };
    return hooks({ agentId, input, signal: new AbortController().signal });
  };
  return { root, guard, seen, send, setMode: (m: CollisionMode) => (current = m) };
}

describe("the collision guard on Claude Code's hooks", () => {
  it("ask: agent 2's Edit of a file agent 1 changed and has not committed is answered 'ask', with the reason Claude Code shows", async () => {
    const { send, seen } = setup("ask");
    expect(await send("a1", "PreToolUse", "t1")).toEqual({});
    expect(await send("a1", "PostToolUse", "t1")).toEqual({});
    expect(await send("a2", "PreToolUse", "t2")).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "Arcadia: Agent #1 also edits App.tsx (changed it, not committed yet)",
      },
    });
    // Every hook still reached the rest of Arcadia (rows, permission prompts).
    expect(seen).toEqual(["a1:PreToolUse", "a1:PostToolUse", "a2:PreToolUse"]);
  });

  it("a side query's edit (a forked query's hook: agent_id, no agent_type) never runs: it edits nothing and collides with nothing", async () => {
    const { send } = setup("ask");
    // The CLI refuses every tool of its away summary (and its kind); only PreToolUse fires.
    expect(await send("a1", "PreToolUse", "fork-1", "Edit", "App.tsx", { agent_id: "a144ad86abc316cee" })).toEqual({});
    expect(await send("a2", "PreToolUse", "t2")).toEqual({});
  });

  it("an edit running right now collides too; the same agent editing its own file again does not", async () => {
    const { send } = setup("ask");
    await send("a1", "PreToolUse", "t1");
    expect(await send("a1", "PreToolUse", "t1b")).toEqual({});
    expect(JSON.stringify(await send("a2", "PreToolUse", "t2"))).toContain("Agent #1 also edits App.tsx (editing it now)");
  });

  it("several others are each named with what they do", async () => {
    const { send } = setup("ask");
    await send("a1", "PreToolUse", "t1");
    await send("a3", "PreToolUse", "t3");
    await send("a3", "PostToolUse", "t3");
    expect(JSON.stringify(await send("a2", "PreToolUse", "t2"))).toContain(
      "Agent #1 and a3 also edit App.tsx (Agent #1: editing it now; a3: changed it, not committed yet)",
    );
  });

  it("warn lets the edit through (no decision) and both cards share the file; off tracks nothing", async () => {
    const { send, guard, setMode } = setup("warn");
    await send("a1", "PreToolUse", "t1");
    expect(await send("a2", "PreToolUse", "t2")).toEqual({});
    expect(guard.sharedFiles("a1").map((f) => f.otherAgentIds)).toEqual([["a2"]]);
    setMode("off");
    await send("a3", "PreToolUse", "t3");
    expect(guard.sharedFiles("a3")).toEqual([]);
  });

  it("a denied or failed edit is not remembered as a change; tools that edit nothing are never asked about", async () => {
    const { send } = setup("ask");
    await send("a1", "PreToolUse", "t1");
    await send("a1", "PermissionDenied", "t1");
    expect(await send("a2", "PreToolUse", "t2")).toEqual({});
    await send("a2", "PostToolUseFailure", "t2");
    await send("a1", "PreToolUse", "r1", "Read");
    expect(await send("a2", "PreToolUse", "r2", "Read")).toEqual({});
  });
});

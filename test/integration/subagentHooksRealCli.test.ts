/**
 * What Claude Code's hooks say about a sub-agent's tools (CLI 2.1.330), checked live: Arcadia puts
 * a sub-agent's tools under its `Subtask:` row from these hooks (core/agent/hookRows.ts), before
 * the transcripts have them. Foreground and background sub-agents; the facts are printed and the
 * ones Arcadia relies on asserted.
 */
import { basename } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeHookSettingsFile, type HookSettingsFile } from "../../src/core/hooks/hookSettingsFile";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { type HookInput, type RunningLoopbackServer, startLoopbackServer } from "../../src/core/server";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { type LoopbackBridge, loopbackBridge } from "../rig/loopback-bridge.js";
import { blocks, readRecords, subagentFiles } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";
import { CLAUDE_CODE_VERSION } from "../rig/cli-binary";

const available = realCliAvailable("sub-agents' hooks with the real CLI");
const SUB_PROMPT = "SUBAGENT-TASK: print a greeting from the helper";
const AGENT_CALL = { name: "Agent", input: { description: "Greeting helper", prompt: SUB_PROMPT, subagent_type: "general-purpose" } };
const facts: string[] = [];

describe.skipIf(!available)("a sub-agent's tools through the hooks (real CLI)", () => {
  let rig: Rig;
  let server: RunningLoopbackServer;
  let bridge: LoopbackBridge;
  let settings: HookSettingsFile;
  const inputs: (HookInput & { at: number })[] = [];

  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: [
          {
            match: "SUBAGENT-TASK",
            steps: [
              { tools: [{ name: "Bash", input: { command: "sleep 2 && echo hello-from-the-helper", description: "Greet" } }] },
              { text: "Helper result: hello." },
            ],
          },
          { match: "Delegate in the foreground", steps: [{ tools: [AGENT_CALL] }, { text: "The helper greeted." }] },
          {
            match: "Delegate in the background",
            steps: [{ tools: [AGENT_CALL] }, { text: "The helper works in the background." }, { text: "The helper reported back." }],
          },
        ],
      },
    });
    server = await startLoopbackServer({
      tracker: new ToolCallTracker(),
      registerTools: () => undefined,
      hooks: ({ input }) => (inputs.push({ ...input, at: Date.now() }), {}),
      log: () => undefined,
    });
    bridge = await loopbackBridge(server.port, rig.root);
    settings = await writeHookSettingsFile(server.hooksUrl, server.tokenFor("agent-s"), "agent-s", rig.root);
  });

  afterAll(async () => {
    await settings?.remove();
    await bridge?.close();
    await server?.close();
    await rig?.dispose();
    if (facts.length) console.log(`sub-agents through the hooks (CLI ${CLAUDE_CODE_VERSION}):\n  ${facts.join("\n  ")}`);
  });

  async function run(prompt: string, env: Record<string, string>, until: RegExp) {
    inputs.length = 0;
    const session = await rig.startInteractive({ args: ["--settings", settings.path, "--allowedTools", "Bash"], env, sidecar: bridge.sidecar() });
    await session.submit(prompt);
    await session.waitForScreen(until, 60_000);
    await session.waitForIdle(60_000);
    await new Promise((r) => setTimeout(r, 500));
    const file = subagentFiles(session.projectDir(), session.sessionId)[0]!;
    const subToolUse = readRecords(file).flatMap((r) => blocks(r).filter((b) => b.type === "tool_use"))[0]!;
    const mainAgentUse = session.records().flatMap((r) => blocks(r).filter((b) => b.type === "tool_use" && b.name === "Agent"))[0]!;
    const result = {
      session,
      file,
      agentId: basename(file).replace(/^agent-|\.jsonl$/g, ""),
      subToolUseId: String(subToolUse.id),
      agentToolUseId: String(mainAgentUse.id),
      inputs: [...inputs],
    };
    await session.dispose();
    return result;
  }

  it("a foreground sub-agent's tool: its hooks carry agent_id (= its file's id) and the tool_use_id of its own transcript", async () => {
    const r = await run("Delegate in the foreground", { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" }, /The helper greeted\./);
    const sub = r.inputs.filter((i) => i.tool_use_id === r.subToolUseId);
    const agentCall = r.inputs.filter((i) => i.tool_use_id === r.agentToolUseId);
    facts.push(
      `foreground: sub-agent tool hooks ${sub.map((i) => i.hook_event_name).join(", ")}; keys of its PreToolUse: ${Object.keys(sub[0] ?? {})
        .filter((k) => k !== "at")
        .sort()
        .join(", ")}`,
    );
    facts.push(
      `foreground: agent_id ${String(sub[0]?.agent_id)} (file agent-${r.agentId}.jsonl), agent_type ${String(sub[0]?.agent_type)}, session_id is the main session: ${sub[0]?.session_id === r.session.sessionId}, transcript_path ${String(sub[0]?.transcript_path).replace(rig.root, "<rig>")}`,
    );
    facts.push(
      `foreground: the Agent call's own hooks ${agentCall.map((i) => `${i.hook_event_name}${i.agent_id ? " (with agent_id)" : ""}`).join(", ")}; its PostToolUse after the sub-agent's: ${(agentCall.find((i) => i.hook_event_name === "PostToolUse")?.at ?? 0) >= (sub.find((i) => i.hook_event_name === "PostToolUse")?.at ?? Infinity)}`,
    );
    expect(sub.map((i) => i.hook_event_name)).toEqual(["PreToolUse", "PostToolUse"]);
    expect(sub[0]?.agent_id).toBe(r.agentId);
    expect(sub[0]?.session_id).toBe(r.session.sessionId);
    expect(agentCall.map((i) => i.hook_event_name)).toEqual(["PreToolUse", "PostToolUse"]);
    expect(agentCall[0]?.agent_id).toBeUndefined();
  });

  it("a background sub-agent's tool: the same, and the Agent call's PostToolUse comes at launch, before the sub-agent's tool ends", async () => {
    const r = await run("Delegate in the background", {}, /The helper reported back\./);
    const sub = r.inputs.filter((i) => i.tool_use_id === r.subToolUseId);
    const agentPost = r.inputs.find((i) => i.tool_use_id === r.agentToolUseId && i.hook_event_name === "PostToolUse");
    const subPost = sub.find((i) => i.hook_event_name === "PostToolUse");
    facts.push(
      `background: sub-agent tool hooks ${sub.map((i) => i.hook_event_name).join(", ")}, agent_id ${String(sub[0]?.agent_id)} (file agent-${r.agentId}.jsonl); the Agent call's PostToolUse ${agentPost && subPost ? `${subPost.at - agentPost.at} ms before the sub-agent's tool ended` : "missing"}`,
    );
    expect(sub.map((i) => i.hook_event_name)).toEqual(["PreToolUse", "PostToolUse"]);
    expect(sub[0]?.agent_id).toBe(r.agentId);
    expect(agentPost && subPost && agentPost.at < subPost.at).toBe(true);
  });
});

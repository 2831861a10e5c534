/**
 * The real Claude Code CLI calling Arcadia's embedded MCP server, given to it the way Arcadia
 * gives it to the agents it launches: a --mcp-config with the window's token and the agent's id.
 * The server runs beside the CLI in its loopback-only namespace (a rig sidecar).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackerChange } from "../../src/core/mcp/toolCallTracker";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { readRecords } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("the real CLI calling Arcadia's MCP server");

describe.skipIf(!available)("the real CLI and Arcadia's MCP server", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: [{ match: "Echo through Arcadia", steps: [{ tools: [{ name: "mcp__arcadia__echo", input: { text: "hello" } }] }, { text: "Echoed." }] }],
      },
    });
  });
  afterAll(async () => rig?.dispose());

  it("reaches the server with the call's tool_use id and the agent's id, and the transcript gets the result", async () => {
    const dir = join(rig.root, "mcp");
    mkdirSync(dir, { recursive: true });
    const config = join(dir, "mcp-config.json");
    const result = await rig.runPrint("Echo through Arcadia", {
      args: ["--mcp-config", config, "--strict-mcp-config", "--allowedTools", "mcp__arcadia__echo"],
      sidecar: { script: join(__dirname, "../rig/arcadia-mcp-sidecar.ts"), args: ["--dir", dir, "--agent", "agent-7"], readyFile: config },
    });
    expect(result.exitCode, result.stderr).toBe(0);

    const records = readRecords(rig.transcriptPath(result.sessionId));
    const blocks = records.flatMap((r) => (Array.isArray(r.message?.content) ? r.message.content : []));
    const use = blocks.find((b: { type?: string; name?: string }) => b.type === "tool_use" && b.name === "mcp__arcadia__echo") as { id: string };
    const answer = blocks.find((b: { type?: string; tool_use_id?: string }) => b.type === "tool_result" && b.tool_use_id === use.id) as {
      content: unknown;
      is_error?: boolean;
    };
    expect(answer.is_error ?? false).toBe(false);
    expect(JSON.stringify(answer.content)).toContain('\\"echoed\\":\\"hello\\"');

    const changes = readFileSync(join(dir, "tracker.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as TrackerChange);
    expect(changes.map((c) => c.type)).toEqual(["started", "ended"]);
    expect(changes[0]).toMatchObject({ call: { toolName: "echo", display: "hello", toolUseId: use.id, agentId: "agent-7" } });
  });
});

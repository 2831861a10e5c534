/**
 * Force-finishing a hung MCP call with the real CLI: the scripted model makes the agent call
 * Arcadia's real `execute_command` with a command that never exits; the test then clicks Complete
 * (or Cancel) the way the panel does — through the tracker, in the sidecar that runs Arcadia's
 * server beside the CLI — and checks what the CLI recorded and that the turn went on.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackerChange } from "../../src/core/mcp/toolCallTracker";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { readRecords, toolExchange } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";
import { pollUntil } from "../support/waitFor";

const available = realCliAvailable("force-finishing an MCP call of the real CLI");

const MARK = "partial-output-line";
/** Prints a line, then never exits on its own. */
const ENDLESS = `echo ${MARK}; sleep 100000`;

function conversation(match: string, after: string) {
  return { match, steps: [{ tools: [{ name: "mcp__arcadia__execute_command", input: { command: ENDLESS } }] }, { text: after }] };
}

/** Waits until the sidecar's tracker log shows an execute_command call in flight. */
async function callStarted(dir: string, timeoutMs = 60_000): Promise<void> {
  const file = join(dir, "tracker.jsonl");
  await pollUntil(
    () => {
      if (!existsSync(file)) return false;
      const changes = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TrackerChange);
      return changes.some((c) => c.type === "started" && c.call.toolName === "execute_command");
    },
    "the CLI to call execute_command",
    timeoutMs,
    50,
  );
}

describe.skipIf(!available)("force-finishing an MCP call of the real CLI", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: [
          conversation("Run the endless command, then complete", "Carried on after Complete."),
          conversation("Run the endless command, then cancel", "Carried on after Cancel."),
        ],
      },
    });
  });
  afterAll(async () => rig?.dispose());

  /** Runs the prompt with Arcadia's tools; once the call is in flight, clicks `action`. */
  async function runAndForce(prompt: string, action: "complete" | "cancel", tag: string) {
    const dir = join(rig.root, `mcp-${tag}`);
    mkdirSync(dir, { recursive: true });
    const config = join(dir, "mcp-config.json");
    const running = rig.runPrint(prompt, {
      args: ["--mcp-config", config, "--strict-mcp-config", "--permission-mode", "default", "--allowedTools", "mcp__arcadia__execute_command"],
      sidecar: {
        script: join(__dirname, "../rig/arcadia-mcp-sidecar.ts"),
        args: ["--dir", dir, "--agent", `agent-${tag}`, "--workspace", rig.workspace],
        readyFile: config,
      },
      timeoutMs: 90_000,
    });
    await callStarted(dir);
    // The user sees the first line on the card, then clicks the button.
    appendFileSync(join(dir, "control.jsonl"), `${JSON.stringify({ action, tool: "execute_command", whenOutputContains: MARK })}\n`);
    const result = await running;
    expect(result.timedOut, "the CLI was still waiting for the call").toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);

    const records = readRecords(rig.transcriptPath(result.sessionId));
    const exchange = toolExchange(records, "mcp__arcadia__execute_command");
    expect(exchange.use, "tool_use in the transcript").toBeDefined();
    expect(exchange.answer, "tool_result in the transcript").toBeDefined();
    const answer = exchange.answer!;
    // As the CLI stored it, JSON-encoded (an error's content is a plain string, a success's an array).
    const text = JSON.stringify(answer.content);
    const { after } = exchange;
    const use = exchange.use!;
    const log = readFileSync(join(dir, "control-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { done: boolean; outputSoFar: string });
    const changes = readFileSync(join(dir, "tracker.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as TrackerChange);
    return { result, answer, text, after, log, changes, useId: use!.id as string };
  }

  it("Complete returns the command's partial output to the CLI, the transcript records it, and the turn goes on", async () => {
    const run = await runAndForce("Run the endless command, then complete", "complete", "complete");
    expect(run.log).toMatchObject([{ done: true, outputSoFar: `${MARK}\n` }]);
    expect(run.answer.is_error ?? false).toBe(false);
    expect(run.text).toContain('\\"status\\":\\"force-completed\\"');
    expect(run.text).toContain(`\\"output\\":\\"${MARK}\\\\n\\"`);
    expect(run.text).toContain('\\"exit_code\\":null');
    expect(run.after).toContain("Carried on after Complete.");
    expect(run.result.stdout).toContain("Carried on after Complete.");
    // The call was tied to its transcript row and is no longer in flight.
    expect(run.changes[0]).toMatchObject({
      type: "started",
      call: { toolName: "execute_command", display: ENDLESS, toolUseId: run.useId, agentId: "agent-complete" },
    });
    expect(run.changes.at(-1)).toMatchObject({ type: "ended" });
  });

  it("Cancel interrupts the command, the transcript records the cancelled result, and the turn goes on", async () => {
    const run = await runAndForce("Run the endless command, then cancel", "cancel", "cancel");
    expect(run.log).toMatchObject([{ done: true }]);
    expect(run.answer.is_error).toBe(true);
    expect(run.text).toContain('\\"status\\":\\"cancelled\\"');
    expect(run.text).toContain("cancelled from the Arcadia panel");
    expect(run.after).toContain("Carried on after Cancel.");
    expect(run.result.stdout).toContain("Carried on after Cancel.");
    expect(run.changes.at(-1)).toMatchObject({ type: "ended" });
  });
});

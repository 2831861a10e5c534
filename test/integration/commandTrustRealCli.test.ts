/**
 * Command trust with the real CLI: what Arcadia's `execute_command` does with what an agent sends it.
 * The scripted model makes the agent call the tool; Arcadia's real server and tools run beside the
 * CLI (the rig's sidecar) under the default policy ("unlessAllowListed") with `echo` allow-listed,
 * and every approval it would ask is logged and denied at once. Checked in the transcript:
 * - a command carrying a control character, or a `!` history designator, is refused with a message
 *   that says why (nothing runs, nothing is asked) and the turn goes on;
 * - an allow-listed command runs unasked and its output reaches the agent;
 * - a command that is not allow-listed is asked, and a Deny keeps it from running.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approval } from "../../src/core/mcp/approvalQueue";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { readRecords, toolExchange } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("execute_command's trust boundary with the real CLI");

/** Harmless markers: each exists only if the command that names it ran. */
const CONTROL_MARKER = "ran-after-ctrl-u.txt";
const BANG_MARKER = "ran-history-expansion.txt";
const ASKED_MARKER = "ran-unapproved.txt";

const CASES = {
  control: { prompt: "Send the command with Ctrl-U", command: `echo harmless\u0015touch ${CONTROL_MARKER}`, after: "Carried on after the control character." },
  bang: { prompt: "Send the history designator", command: `!! > ${BANG_MARKER}`, after: "Carried on after the history designator." },
  allowed: { prompt: "Send the allow-listed command", command: "echo allowed-output-line", after: "Carried on after echo." },
  asked: { prompt: "Send the unlisted command", command: `touch ${ASKED_MARKER}`, after: "Carried on after the denial." },
} as const;

describe.skipIf(!available)("execute_command's trust boundary with the real CLI", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: Object.values(CASES).map((c) => ({
          match: c.prompt,
          steps: [{ tools: [{ name: "mcp__arcadia__execute_command", input: { command: c.command } }] }, { text: c.after }],
        })),
      },
    });
  });
  afterAll(async () => rig?.dispose());

  async function run(name: keyof typeof CASES) {
    const { prompt } = CASES[name];
    const dir = join(rig.root, `trust-${name}`);
    mkdirSync(dir, { recursive: true });
    const config = join(dir, "mcp-config.json");
    const result = await rig.runPrint(prompt, {
      // Only Arcadia's tool, allowed the way Arcadia's --settings allows it: its policy is the gate.
      args: ["--mcp-config", config, "--strict-mcp-config", "--permission-mode", "default", "--allowedTools", "mcp__arcadia__execute_command"],
      sidecar: {
        script: join(__dirname, "../rig/arcadia-mcp-sidecar.ts"),
        args: ["--dir", dir, "--agent", `agent-${name}`, "--workspace", rig.workspace, "--allowed-commands", JSON.stringify(["echo"])],
        readyFile: config,
      },
      timeoutMs: 90_000,
    });
    expect(result.timedOut, "the CLI was still waiting for the call").toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);
    const exchange = toolExchange(readRecords(rig.transcriptPath(result.sessionId)), "mcp__arcadia__execute_command");
    expect(exchange.use, "the agent's execute_command call in the transcript").toBeDefined();
    expect(exchange.answer, "its tool_result in the transcript").toBeDefined();
    const answer = exchange.answer!;
    const approvalsFile = join(dir, "approvals.jsonl");
    const asked = existsSync(approvalsFile)
      ? readFileSync(approvalsFile, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Approval)
      : [];
    return {
      answer,
      text: exchange.text,
      after: exchange.after,
      stdout: result.stdout,
      asked,
    };
  }

  it("a command with a control character (Ctrl-U) is refused with a reason; nothing runs or is asked; the turn goes on", async () => {
    const r = await run("control");
    expect(r.answer.is_error).toBe(true);
    expect(r.text).toContain("was not run");
    expect(r.text).toContain("Ctrl-U");
    expect(r.asked).toEqual([]);
    expect(existsSync(join(rig.workspace, CONTROL_MARKER))).toBe(false);
    expect(r.after).toContain(CASES.control.after);
    expect(r.stdout).toContain(CASES.control.after);
  });

  it("a command with a `!` history designator is refused with a reason; nothing runs or is asked; the turn goes on", async () => {
    const r = await run("bang");
    expect(r.answer.is_error).toBe(true);
    expect(r.text).toContain("was not run");
    expect(r.text).toMatch(/history/i);
    expect(r.asked).toEqual([]);
    expect(existsSync(join(rig.workspace, BANG_MARKER))).toBe(false);
    expect(r.after).toContain(CASES.bang.after);
  });

  it("an allow-listed command runs unasked and its output reaches the agent", async () => {
    const r = await run("allowed");
    expect(r.asked).toEqual([]);
    expect(r.answer.is_error ?? false).toBe(false);
    expect(r.text).toContain("allowed-output-line");
    expect(r.text).toContain('\\"exit_code\\":0');
    expect(r.after).toContain(CASES.allowed.after);
  });

  it("a command that is not allow-listed is asked first, exactly as sent, and a Deny keeps it from running", async () => {
    const r = await run("asked");
    expect(r.asked).toMatchObject([
      { kind: "command", subject: CASES.asked.command, agentId: "agent-asked", reason: expect.stringContaining("not on arcadia.mcp.allowedCommands") },
    ]);
    expect(r.answer.is_error).toBe(true);
    expect(r.text).toContain("denied");
    expect(existsSync(join(rig.workspace, ASKED_MARKER))).toBe(false);
    expect(r.after).toContain(CASES.asked.after);
  });
});

// Arcadia's embedded MCP server run beside the real CLI in its namespace (a rig "sidecar"), with
// a test tool, writing the --mcp-config the CLI gets and logging every tracker change.
//   tsx test/rig/arcadia-mcp-sidecar.ts --dir <folder> --agent <id> [--workspace <folder>]
//     [--allowed-commands <json array>]
// Writes <dir>/mcp-config.json (also the ready file: the CLI starts once it exists) and appends
// tracker changes to <dir>/tracker.jsonl.
//
// With --workspace, Arcadia's real tools are served too (commands run as real processes, files in
// that folder; diffs wait for a decision, Complete accepts them), and the panel's force-finish is
// driven through <dir>/control.jsonl: each line the test appends,
//   {"action": "complete" | "cancel", "tool": "execute_command", "whenOutputContains": "text"}
// is applied to the first call in flight of that tool once its output so far contains the text
// (the user clicking Complete / Cancel on the card after seeing that line). What was done goes to
// <dir>/control-log.jsonl.
//
// With --allowed-commands, execute_command follows Arcadia's default policy ("unlessAllowListed")
// with those entries, and every approval asked is logged to <dir>/approvals.jsonl and denied at
// once (the user clicking Deny), so a test sees exactly what would have been asked. Without it,
// nothing asks.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ApprovalQueue } from "../../src/core/mcp/approvalQueue";
import { mcpConfig } from "../../src/core/server/mcpConfigFile";
import { startLoopbackServer } from "../../src/core/server";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../src/core/mcp/toolResult";
import { linkedResources, nodeWorkspaceFiles, registerArcadiaTools } from "../../src/core/tools";
import type { DiffDecision, DiffReviewer, ToolPorts } from "../../src/core/tools/ports";
import { BubblewrapSandbox } from "../../src/core/sandbox";
import { ProcessCommandRunner } from "../../src/core/tools/processCommandRunner";

function arg(name: string, optional = false): string | undefined {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  if (!value && !optional) throw new Error(`usage: arcadia-mcp-sidecar --dir <folder> --agent <id> [--workspace <folder>] (missing ${name})`);
  return value;
}

interface ControlLine {
  action: "complete" | "cancel";
  tool: string;
  whenOutputContains?: string;
}

/** Diffs stay pending until force-finished (nobody is there to click Accept in the rig). */
function pendingDiffs(): DiffReviewer {
  const waiting = new Map<string, (d: DiffDecision) => void>();
  let next = 1;
  return {
    propose() {
      const id = `diff-${next++}`;
      return { id, decision: new Promise<DiffDecision>((resolve) => waiting.set(id, resolve)) };
    },
    accept: (id) => waiting.get(id)?.("accept"),
    reject: (id) => waiting.get(id)?.("reject"),
  };
}

async function main(dir: string, agentId: string, workspace: string | undefined, allowedCommands: string | undefined): Promise<void> {
  const runner = new ProcessCommandRunner();
  const approvals = new ApprovalQueue();
  if (allowedCommands !== undefined) {
    approvals.onDidChange((change) => {
      if (change.type !== "added") return;
      appendFileSync(join(dir, "approvals.jsonl"), `${JSON.stringify(change.approval)}\n`);
      approvals.decide(change.approval.id, "deny");
    });
  }
  const policy =
    allowedCommands !== undefined
      ? { mode: "unlessAllowListed" as const, allowed: JSON.parse(allowedCommands) as string[] }
      : { mode: "never" as const, allowed: [] };
  const commandApproval = () => policy;
  const ports: ToolPorts | undefined = workspace
    ? {
        files: nodeWorkspaceFiles([workspace]),
        commands: runner,
        diffs: pendingDiffs(),
        diagnostics: { get: () => [] },
        editor: { open: async () => undefined },
        approvals,
        commandApproval,
        // The real sandbox, as in VS Code: allow-listed (and, with "never", all) commands run in bubblewrap where it runs.
        sandbox: new BubblewrapSandbox({ settings: () => ({ mode: "unaskedCommands", readablePaths: [] }) }),
      }
    : undefined;
  const tracker = new ToolCallTracker(ports ? linkedResources(ports) : undefined);
  tracker.onDidChange((change) => appendFileSync(join(dir, "tracker.jsonl"), `${JSON.stringify(change)}\n`));
  const server = await startLoopbackServer({
    tracker,
    registerTools: (addTool) => {
      addTool({
        name: "echo",
        description: "Echoes its text.",
        inputSchema: { text: z.string() },
        display: (args: { text: string }) => args.text,
        handler: async (args: { text: string }) => jsonResult({ echoed: args.text }),
      });
      if (ports) registerArcadiaTools(addTool, ports);
    },
  });
  // The same content Arcadia writes for an agent (writeMcpConfigFile, with the agent's own token), at a path the test knows.
  writeFileSync(join(dir, "mcp-config.json"), JSON.stringify(mcpConfig(server.url, server.tokenFor(agentId), agentId)), { mode: 0o600 });

  // The panel's buttons, driven by the test through a file (the namespace has no other way in).
  let applied = 0;
  const control = setInterval(() => {
    const file = join(dir, "control.jsonl");
    if (!existsSync(file)) return;
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim());
    const line = lines[applied];
    if (!line) return;
    const order = JSON.parse(line) as ControlLine;
    const call = tracker.calls().find((c) => c.toolName === order.tool && c.terminalId !== undefined);
    if (!call?.terminalId) return;
    const { output } = runner.partialOutput(call.terminalId);
    if (order.whenOutputContains && !output.includes(order.whenOutputContains)) return;
    const done = order.action === "complete" ? tracker.completeCall(call.id) : tracker.cancelCall(call.id);
    appendFileSync(join(dir, "control-log.jsonl"), `${JSON.stringify({ ...order, callId: call.id, done, outputSoFar: output })}\n`);
    applied++;
  }, 25);

  const stop = () => {
    clearInterval(control);
    runner.dispose();
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main(arg("--dir") as string, arg("--agent") as string, arg("--workspace", true), arg("--allowed-commands", true)).catch((err) => {
  console.error(err);
  process.exit(1);
});

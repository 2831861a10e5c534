/**
 * Arcadia's real tools behind the real server, for the server-hygiene attacks: every command asks
 * (so a call waits on an approval), commands run for real in a temp workspace (so a late Allow
 * would leave a marker file), and the test reaches the server, the tracker and the approvals.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { clientTransport } from "../../../support/mcpClient";
import { ApprovalQueue, type Approval } from "../../../../src/core/mcp/approvalQueue";
import { AGENT_HEADER, type RunningLoopbackServer, startLoopbackServer, type LoopbackServerOptions } from "../../../../src/core/server";
import { ToolCallTracker, type ToolCallTrackerOptions } from "../../../../src/core/mcp/toolCallTracker";
import { linkedResources, nodeWorkspaceFiles, registerArcadiaTools } from "../../../../src/core/tools";
import type { ToolPorts } from "../../../../src/core/tools/ports";
import { ProcessCommandRunner } from "../../../../src/core/tools/processCommandRunner";
import { pollUntil } from "../../../support/waitFor";

export interface ArcadiaServer {
  workspace: string;
  server: RunningLoopbackServer;
  tracker: ToolCallTracker;
  approvals: ApprovalQueue;
  /** Every command the tools asked the runner to start, in order: "nothing ran" without waiting to see. */
  commandsStarted: string[];
  /** A connected SDK client that presents `agentId`'s own token. */
  client(agentId: string): Promise<Client>;
  /** The next approval asked for. */
  nextApproval(): Promise<Approval>;
  close(): Promise<void>;
}

export async function startArcadiaServer(
  opts: Partial<Omit<LoopbackServerOptions, "tracker" | "registerTools">> & { tracker?: ToolCallTrackerOptions; approvals?: ApprovalQueue } = {},
): Promise<ArcadiaServer> {
  const workspace = join(realpathSync(mkdtempSync(join(tmpdir(), "arcadia-hygiene-"))), "ws");
  mkdirSync(workspace);
  const runner = new ProcessCommandRunner();
  const commandsStarted: string[] = [];
  const approvals = opts.approvals ?? new ApprovalQueue();
  const ports: ToolPorts = {
    files: nodeWorkspaceFiles([workspace]),
    commands: {
      start: (request) => {
        commandsStarted.push(request.command);
        return runner.start(request);
      },
      interrupt: (id) => runner.interrupt(id),
      partialOutput: (id) => runner.partialOutput(id),
      release: (id) => runner.release(id),
    },
    diffs: { propose: () => ({ id: "diff", decision: new Promise(() => undefined) }), accept: () => undefined, reject: () => undefined },
    diagnostics: { get: () => [] },
    editor: { open: async () => undefined },
    approvals,
    commandApproval: () => ({ mode: "always", allowed: [] }),
  };
  const { tracker: trackerOptions, approvals: _approvals, ...serverOptions } = opts;
  const tracker = new ToolCallTracker(linkedResources(ports), trackerOptions);
  const server = await startLoopbackServer({ ...serverOptions, tracker, registerTools: (addTool) => registerArcadiaTools(addTool, ports) });
  const clients: Client[] = [];
  const approvalWaiters: ((a: Approval) => void)[] = [];
  approvals.onDidChange((change) => {
    if (change.type === "added") approvalWaiters.shift()?.(change.approval);
  });
  return {
    workspace,
    server,
    tracker,
    approvals,
    commandsStarted,
    async client(agentId) {
      const client = new Client({ name: "hygiene-test", version: "1.0.0" });
      const headers = { authorization: `Bearer ${server.tokenFor(agentId)}`, [AGENT_HEADER]: agentId };
      await client.connect(clientTransport(server.url, headers));
      clients.push(client);
      return client;
    },
    nextApproval: () => new Promise((resolve) => approvalWaiters.push(resolve)),
    async close() {
      runner.dispose();
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
      rmSync(join(workspace, ".."), { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` holds (polled), or rejects after `ms`. */
export async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  await pollUntil(check, "the condition", ms, 10);
}

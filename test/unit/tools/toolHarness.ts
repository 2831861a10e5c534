/**
 * Arcadia's real tools behind the real MCP server, called by the real SDK client over loopback
 * HTTP (with the agent header, as a launched agent sends it), on ports backed by a temp folder
 * and real processes. Diffs, problems and editors are in-memory stand-ins the test drives.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { clientTransport } from "../../support/mcpClient";
import { ApprovalQueue, type ApprovalDecision, type Approval } from "../../../src/core/mcp/approvalQueue";
import { AGENT_HEADER, startLoopbackServer } from "../../../src/core/server";
import { ToolCallTracker, type TrackedCall } from "../../../src/core/mcp/toolCallTracker";
import { linkedResources, nodeWorkspaceFiles, registerArcadiaTools } from "../../../src/core/tools";
import type {
  CommandEnd,
  CommandHandle,
  CommandRunner,
  DiagnosticsSource,
  DiffDecision,
  DiffReviewer,
  ProposeChange,
  StartCommand,
  ToolPorts,
} from "../../../src/core/tools/ports";
import type { CommandApprovalSettings } from "../../../src/core/tools/commandApproval";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { BubblewrapSandbox, type CommandSandbox, type SandboxSettings } from "../../../src/core/sandbox";

/** The real runner, remembering what it was asked to run and how each command ended. */
export class RecordingCommandRunner extends ProcessCommandRunner {
  readonly started: StartCommand[] = [];
  private readonly ends = new Map<string, Promise<CommandEnd>>();

  override async start(request: StartCommand): Promise<CommandHandle> {
    this.started.push(request);
    const handle = await super.start(request);
    this.ends.set(handle.id, handle.ended);
    return handle;
  }

  /** How a command ended (kept after release), e.g. to see that Cancel really interrupted it. */
  endOf(id: string): Promise<CommandEnd> | undefined {
    return this.ends.get(id);
  }
}

export interface Proposal extends ProposeChange {
  id: string;
}

/** Diffs wait until the test (or the tracker) accepts or rejects them. */
export class MemoryDiffReviewer implements DiffReviewer {
  readonly proposals: Proposal[] = [];
  private readonly waiting = new Map<string, (d: DiffDecision) => void>();
  private readonly listeners: ((p: Proposal) => void)[] = [];
  private nextId = 1;

  propose(change: ProposeChange) {
    const id = `diff-${this.nextId++}`;
    const decision = new Promise<DiffDecision>((resolve) => this.waiting.set(id, resolve));
    const proposal = { ...change, id };
    this.proposals.push(proposal);
    for (const l of this.listeners.splice(0)) l(proposal);
    return { id, decision };
  }
  accept(id: string) {
    this.settle(id, "accept");
  }
  reject(id: string) {
    this.settle(id, "reject");
  }
  next(): Promise<Proposal> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }
  private settle(id: string, d: DiffDecision) {
    this.waiting.get(id)?.(d);
    this.waiting.delete(id);
  }
}

export interface Harness {
  root: string;
  workspace: string;
  outside: string;
  ports: ToolPorts;
  runner: RecordingCommandRunner;
  diffs: MemoryDiffReviewer;
  approvals: ApprovalQueue;
  tracker: ToolCallTracker;
  opened: { path: string; line?: number }[];
  diagnostics: { path: string; diagnostics: ReturnType<DiagnosticsSource["get"]>[number]["diagnostics"] }[];
  /** Calls a tool; `body` is the parsed JSON of its text (or the text itself when not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are free-form JSON; tests assert on their fields
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any; text: string }>;
  /** The next approval asked for. */
  nextApproval(): Promise<Approval>;
  /** Answers every approval with `decision` from now on (undefined: the test answers them itself again). */
  answerApprovals(decision: "allow" | "deny" | undefined): void;
  nextCall(): Promise<TrackedCall>;
  /** The terminal id the call links, once it does. */
  terminalOf(callId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: {
    commandApproval?: CommandApprovalSettings;
    noFolder?: boolean;
    commands?: CommandRunner;
    regexDeadlineMs?: number;
    /** Default: the real sandbox (bubblewrap where it runs) with arcadia.sandbox's default; "none": a host without one. */
    sandbox?: CommandSandbox | SandboxSettings | "none";
    agentCwd?: (agentId: string) => string | undefined;
    /** The cards the host shows (the harness's agent is "agent-1"). */
    agentCard?: ToolPorts["agentCard"];
  } = {},
): Promise<Harness> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "arcadia-tools-")));
  const workspace = join(root, "workspace");
  const outside = join(root, "outside");
  mkdirSync(workspace);
  mkdirSync(outside);
  const runner = new RecordingCommandRunner();
  const diffs = new MemoryDiffReviewer();
  const approvals = new ApprovalQueue();
  const opened: Harness["opened"] = [];
  const diagnostics: Harness["diagnostics"] = [];
  const ports: ToolPorts = {
    files: nodeWorkspaceFiles(opts.noFolder ? [] : [workspace]),
    commands: opts.commands ?? runner,
    diffs,
    diagnostics: { get: (path) => (path === undefined ? diagnostics : diagnostics.filter((d) => d.path === path)) },
    editor: { open: async (path, line) => void opened.push({ path, ...(line ? { line } : {}) }) },
    approvals,
    // Read per call, like the settings: a test may change it between calls.
    commandApproval: () => opts.commandApproval ?? { mode: "never", allowed: [] },
    ...sandboxPort(opts.sandbox),
    ...(opts.agentCwd ? { agentCwd: opts.agentCwd } : {}),
    ...(opts.agentCard ? { agentCard: opts.agentCard } : {}),
  };
  const tracker = new ToolCallTracker(linkedResources(ports));
  const server = await startLoopbackServer({
    tracker,
    registerTools: (addTool) => registerArcadiaTools(addTool, ports, { search: { regexDeadlineMs: opts.regexDeadlineMs } }),
  });
  const client = new Client({ name: "tools-test", version: "1.0.0" });
  await client.connect(clientTransport(server.url, { authorization: `Bearer ${server.tokenFor("agent-1")}`, [AGENT_HEADER]: "agent-1" }));

  let standing: "allow" | "deny" | undefined;
  const approvalWaiters: ((a: Approval) => void)[] = [];
  approvals.onDidChange((change) => {
    if (change.type !== "added") return;
    if (standing) queueMicrotask(() => approvals.decide(change.approval.id, standing as "allow" | "deny"));
    approvalWaiters.shift()?.(change.approval);
  });
  const callWaiters: ((c: TrackedCall) => void)[] = [];
  const terminals = new Map<string, string>();
  const terminalWaiters = new Map<string, (id: string) => void>();
  tracker.onDidChange((change) => {
    if (change.type === "started") callWaiters.shift()?.(change.call);
    if (change.type === "updated" && change.call.terminalId) {
      terminals.set(change.call.id, change.call.terminalId);
      terminalWaiters.get(change.call.id)?.(change.call.terminalId);
    }
  });

  return {
    root,
    workspace,
    outside,
    ports,
    runner,
    diffs,
    approvals,
    tracker,
    opened,
    diagnostics,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
      const text = result.content.map((c) => c.text).join("\n");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Plain-text errors come from the SDK itself (validation, unknown tool).
      }
      return { isError: result.isError === true, body, text };
    },
    nextApproval: () => new Promise((resolve) => approvalWaiters.push(resolve)),
    answerApprovals(decision) {
      standing = decision;
    },
    nextCall: () => new Promise((resolve) => callWaiters.push(resolve)),
    terminalOf: (callId) => new Promise((resolve) => (terminals.has(callId) ? resolve(terminals.get(callId) as string) : terminalWaiters.set(callId, resolve))),
    async close() {
      runner.dispose();
      await client.close().catch(() => undefined);
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export type { ApprovalDecision };

function sandboxPort(choice: CommandSandbox | SandboxSettings | "none" | undefined): { sandbox?: CommandSandbox } {
  if (choice === "none") return {};
  if (choice !== undefined && "launch" in choice) return { sandbox: choice };
  const settings = choice ?? { mode: "unaskedCommands", readablePaths: [] };
  return { sandbox: new BubblewrapSandbox({ settings: () => settings }) };
}

/**
 * The VS Code side of Arcadia's MCP tools: one factory for extension.ts.
 *
 *   const tools = createVscodeToolPorts({ approvals, agentLabel, agentCwd });
 *   context.subscriptions.push(tools);
 *   const tracker = new ToolCallTracker(linkedResources(tools.ports));
 *   startLoopbackServer({ tracker, registerTools: (addTool) => registerArcadiaTools(addTool, tools.ports) });
 */
import type * as vscode from "vscode";
import type { ApprovalQueue } from "../../core/mcp";
import type { AgentCardFacts, CommandApprovalSettings, ToolPorts } from "../../core/tools";
import { BubblewrapSandbox, type SandboxAvailability, type SandboxSettings } from "../../core/sandbox";
import { DisposableStore, Emitter, type Event } from "../../core/util";
import { commandApprovalFromSettings } from "./commandApprovalSetting";
import { sandboxFromSettings } from "./sandboxSetting";
import { vscodeDiagnostics, vscodeEditorOpener } from "./diagnosticsAndEditor";
import { VscodeDiffReviewer } from "./diffReviewer";
import { CommandTerminals } from "./commandTerminals";
import { vscodeWorkspaceFiles } from "./vscodeWorkspaceFiles";

export { ACCEPT_DIFF_COMMAND, PROPOSAL_SCHEME, REJECT_DIFF_COMMAND } from "./diffReviewer";

export interface VscodeToolPortsOptions {
  approvals: ApprovalQueue;
  /** The agent's name as the user knows it (the card's), e.g. "Agent #1"; for terminals and diffs. */
  agentLabel: (agentId: string | undefined) => string;
  /** The agent's folder: relative paths resolve against it. */
  agentCwd?: (agentId: string) => string | undefined;
  /** The agent's card now (the card store's): what a tool may tell the agent about itself. */
  agentCard?: (agentId: string) => AgentCardFacts | undefined;
  /** Default: the arcadia.mcp.commandApproval / arcadia.mcp.allowedCommands settings. */
  commandApproval?: () => CommandApprovalSettings;
  /** Default: arcadia.sandbox / arcadia.sandboxReadablePaths. */
  sandbox?: () => SandboxSettings;
}

type NoSandbox = Extract<SandboxAvailability, { available: false }>;

export function createVscodeToolPorts(options: VscodeToolPortsOptions): vscode.Disposable & {
  ports: ToolPorts;
  reveal(diffId: string): void;
  closeAgentTerminals(agentId: string): void;
  /** The sandbox cannot run here (each reason once): the panel says why. */
  onSandboxUnavailable: Event<NoSandbox>;
} {
  const label = (agentId: string | undefined) => (agentId === undefined ? "Agent" : options.agentLabel(agentId));
  const owned = new DisposableStore();
  const commands = owned.add(new CommandTerminals({ agentLabel: label }));
  const diffs = owned.add(new VscodeDiffReviewer(label));
  const unavailable = owned.add(new Emitter<NoSandbox>());
  const sandbox = new BubblewrapSandbox({ settings: options.sandbox ?? sandboxFromSettings, onUnavailable: (why) => unavailable.fire(why) });
  return {
    ports: {
      files: vscodeWorkspaceFiles(),
      commands,
      diffs,
      diagnostics: vscodeDiagnostics,
      editor: vscodeEditorOpener,
      approvals: options.approvals,
      commandApproval: options.commandApproval ?? commandApprovalFromSettings,
      sandbox,
      ...(options.agentCwd ? { agentCwd: options.agentCwd } : {}),
      ...(options.agentCard ? { agentCard: options.agentCard } : {}),
    },
    reveal: (diffId) => diffs.reveal(diffId),
    closeAgentTerminals: (agentId) => commands.closeAgentTerminals(agentId),
    onSandboxUnavailable: unavailable.event,
    dispose: () => owned.dispose(),
  };
}

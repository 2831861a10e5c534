/**
 * The window's agents over VS Code's terminals: their saved bindings, the process monitor that
 * reads the CLI's status files, and what each card shows beyond its transcript (hook rows, waits,
 * prompts), read from the live board once it exists.
 */
import { AgentManager } from "../agents/agentManager";
import { cardLiveSource } from "../agents/hookToolsSync";
import type { LiveBoard } from "../agents/liveBoard";
import { ClaudeProcessMonitor } from "../core/process";
import { claudeConfigDir, projectDirFor } from "../core/transcript";
import { vscode } from "../vscode/api";
import { WorkspaceBindingStore } from "../vscode/bindingStore";
import { AgentSandboxLaunch } from "../vscode/agentSandboxLaunch";
import { launchExtrasFor, removeLaunchFiles } from "../vscode/launchFiles";
import { VscodeTerminalHost } from "../vscode/terminalHost";
import { PANEL_VIEW_ID } from "../vscode/viewIds";
import type { Late } from "./late";
import type { ToolParts } from "./toolWiring";

export interface AgentParts {
  manager: AgentManager;
  bindings: WorkspaceBindingStore;
  processes: ClaudeProcessMonitor;
  /** Claude Code's own sandbox for the agents' shell commands: its settings per launch, and where it cannot run. */
  agentSandbox: AgentSandboxLaunch;
}

const setting = <T>(name: string, fallback: T) => vscode.workspace.getConfiguration("arcadia").get<T>(name, fallback);

export function wireAgents(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  tools: ToolParts,
  later: { board: Late<LiveBoard>; panelVisible: () => boolean },
): AgentParts {
  const bindings = new WorkspaceBindingStore(context.workspaceState);
  const processes = new ClaudeProcessMonitor({ configDir: claudeConfigDir(), onError: (err) => log.warn(`process monitor: ${String(err)}`) });
  const agentSandbox = new AgentSandboxLaunch(log);
  context.subscriptions.push(agentSandbox);
  const showPanel = () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
  // Made on the first card's first look, when the board exists: once, not on every look.
  let source: ReturnType<typeof cardLiveSource> | undefined;
  const liveFacts = (agentId: string, sessionId: string) =>
    (source ??= cardLiveSource(tools.hookTools, later.board.get(), () => setting("liveToolsFromHooks", true)))(agentId, sessionId);
  const manager = new AgentManager({
    terminals: new VscodeTerminalHost({ visible: later.panelVisible, show: showPanel }),
    store: bindings,
    log,
    projectDirFor,
    processes,
    adoptTerminals: () => setting("adoptTerminals", true),
    launchExtras: launchExtrasFor(tools.server, (place) => agentSandbox.settingsFor(place.cwd, place.sandbox)),
    removeLaunchFiles,
    liveFacts,
  });
  return { manager, bindings, processes, agentSandbox };
}

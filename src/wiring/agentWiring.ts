/**
 * The window's agents over VS Code's terminals: their saved bindings and the process monitor that
 * reads the CLI's status files. What is live on a card (hook rows, waits, prompts) is the card
 * store's to add (src/agents/cards/cardStore.ts).
 */
import { AgentManager } from "../agents/agent/agentManager";
import type { TerminalHandle } from "../agents/ports";
import { ClaudeProcessMonitor } from "../core/process";
import { claudeConfigDir, projectDirFor } from "../core/transcript";
import { vscode } from "../vscode/api";
import { WorkspaceBindingStore } from "../vscode/agent/bindingStore";
import { AgentSandboxLaunch } from "../vscode/agentSandbox/agentSandboxLaunch";
import { launchExtrasFor, removeLaunchFiles } from "../vscode/launch/launchFiles";
import { VscodeTerminalHost } from "../vscode/agent/terminalHost";
import type { PanelPresence } from "../vscode/panelPresence";
import type { ToolParts } from "./toolWiring";

export interface AgentParts {
  manager: AgentManager;
  bindings: WorkspaceBindingStore;
  processes: ClaudeProcessMonitor;
  /** Claude Code's own sandbox for the agents' shell commands: its settings per launch, and where it cannot run. */
  agentSandbox: AgentSandboxLaunch;
  /** Arcadia's panel, in front or not (VS Code's own views can push it aside). */
  panelPresence: PanelPresence;
}

const setting = <T>(name: string, fallback: T) => vscode.workspace.getConfiguration("arcadia").get<T>(name, fallback);

export function wireAgents(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, tools: ToolParts, panel: PanelPresence): AgentParts {
  const bindings = new WorkspaceBindingStore(context.workspaceState);
  const processes = new ClaudeProcessMonitor({ configDir: claudeConfigDir(), onError: (err) => log.warn(`process monitor: ${String(err)}`) });
  const agentSandbox = new AgentSandboxLaunch(log);
  context.subscriptions.push(agentSandbox);
  // Nothing is typed to an agent paused at its budget (the handle's agent, by identity).
  const typingRefusal = (handle: TerminalHandle): string | undefined => {
    const agentId: string | undefined = manager.agentIds().find((id) => manager.agentInfo(id)?.terminal === handle);
    return agentId === undefined ? undefined : tools.budget.typingRefusal(agentId, manager.agentInfo(agentId)?.name ?? "The agent");
  };
  const manager: AgentManager = new AgentManager({
    terminals: new VscodeTerminalHost(panel, typingRefusal),
    store: bindings,
    log,
    projectDirFor,
    processes,
    adoptTerminals: () => setting("adoptTerminals", true),
    launchExtras: launchExtrasFor(tools.server, (place) => agentSandbox.settingsFor(place.cwd, place.sandbox)),
    removeLaunchFiles,
  });
  return { manager, bindings, processes, agentSandbox, panelPresence: panel };
}

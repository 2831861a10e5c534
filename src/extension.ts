/**
 * VS Code entry point: wires the agent manager (src/agents) to VS Code's terminals, the panel's
 * webview, the status bar and the commands; the embedded MCP server with its tools and tracker;
 * the hook broker for Claude Code's permission prompts; the process monitor. All the logic lives
 * behind those seams.
 */
import { vscode } from "./vscode/api";
import { AgentManager } from "./agents/agentManager";
import { LiveBoard } from "./agents/liveBoard";
import { PermissionBroker } from "./core/hooks/permissionBroker";
import { ApprovalQueue } from "./core/mcp/approvalQueue";
import type { RunningMcpServer } from "./core/mcp/server";
import { ToolCallTracker } from "./core/mcp/toolCallTracker";
import { ClaudeProcessMonitor } from "./core/process/claudeProcessMonitor";
import { linkedResources } from "./core/tools/linkedResources";
import { claudeConfigDir, projectDirFor } from "./core/transcript/projectDir";
import { ArcadiaViewProvider, PANEL_VIEW_ID } from "./panel/viewProvider";
import { createMessageRouter } from "./panel/messageRouter";
import type { NoticeView } from "./shared/protocol";
import { WorkspaceBindingStore } from "./vscode/bindingStore";
import { locateClaude } from "./vscode/claudeLocator";
import { chooseLaunchFolder } from "./vscode/folderChoice";
import { pickSession } from "./vscode/sessionsPicker";
import { pickCall } from "./vscode/callPicker";
import { launchExtrasFor, removeLaunchFiles } from "./vscode/launchFiles";
import { startArcadiaServer } from "./vscode/mcpHost";
import { notifyPermission } from "./vscode/permissionNotifications";
import { AgentStatusBar } from "./vscode/statusBar";
import { VscodeTerminalHost } from "./vscode/terminalHost";
import { createVscodeToolPorts } from "./vscode/tools";
import { notifyTurnFinished } from "./vscode/turnNotifications";

const INSTALL_DOCS = "https://docs.anthropic.com/en/docs/claude-code/setup";

/** Set by the bundle's first and last statements (esbuild.js): when the extension host ran it. */
declare const __arcadiaLoadStarted: number | undefined;
declare const __arcadiaLoadEnded: number | undefined;
declare const __arcadiaLoadCpuUsed: NodeJS.CpuUsage | undefined;

/** CPU milliseconds (user + system) of a process.cpuUsage() difference. */
const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

/** What deactivate() hands VS Code to wait for: the server closed, followers and watchers stopped. */
let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const moduleLoadCpuMs = typeof __arcadiaLoadCpuUsed === "object" ? cpuMs(__arcadiaLoadCpuUsed) : 0;
  const moduleLoadMs = typeof __arcadiaLoadStarted === "number" && typeof __arcadiaLoadEnded === "number" ? __arcadiaLoadEnded - __arcadiaLoadStarted : 0;
  const log = vscode.window.createOutputChannel("Arcadia", { log: true });
  context.subscriptions.push(log);

  const config = () => vscode.workspace.getConfiguration("arcadia");

  // ---- MCP tools, tracker, approvals, permission prompts: one loopback server per window ----
  const approvals = new ApprovalQueue();
  const tools = createVscodeToolPorts({
    approvals,
    agentLabel: (id) => (id ? manager.agentInfo(id)?.name : undefined) ?? "Agent",
    agentCwd: (id) => manager.agentInfo(id)?.cwd,
  });
  context.subscriptions.push(tools);
  const tracker = new ToolCallTracker(linkedResources(tools.ports));
  const permissions = new PermissionBroker({ log: (m) => log.info(m), isKnownAgent: (agentId) => manager.agentInfo(agentId) !== undefined });
  // Started (and its code loaded) on first need: an agent launch, or agents of ours after a reload.
  let serverReady: Promise<RunningMcpServer | undefined> | undefined;
  const server = (): Promise<RunningMcpServer | undefined> => (serverReady ??= startArcadiaServer(context, log, { tracker, ports: tools.ports, hooks: permissions.handleHook }));

  const bindings = new WorkspaceBindingStore(context.workspaceState);
  const processes = new ClaudeProcessMonitor({ configDir: claudeConfigDir(), onError: (err) => log.warn(`process monitor: ${String(err)}`) });

  const manager = new AgentManager({
    terminals: new VscodeTerminalHost(),
    store: bindings,
    log,
    projectDirFor: (cwd) => projectDirFor(cwd),
    processes,
    adoptTerminals: () => config().get<boolean>("adoptTerminals", true),
    launchExtras: launchExtrasFor(server),
    removeLaunchFiles,
  });
  shutdown = async () => {
    // The broker first: closing the server would abort pending hook requests, read as "answered in the terminal".
    permissions.dispose();
    await Promise.all([serverReady?.then((s) => s?.close()), processes.stop(), manager.dispose()]);
  };

  const board = new LiveBoard(tracker, approvals, permissions);
  context.subscriptions.push({ dispose: () => board.dispose() });
  context.subscriptions.push(manager.onTranscriptEvents((agentId, events) => board.transcriptEvents(agentId, events)));

  let notice: NoticeView | null = null;
  const setNotice = (next: NoticeView | null) => {
    notice = next;
    provider.post({ type: "notice", notice });
  };

  const openClaude = async (askFolder = false) => {
    const cwd = await chooseLaunchFolder(context.workspaceState, askFolder);
    if (!cwd) return;
    const claude = await locateClaude(config().get<string>("claudePath", ""), process.env.PATH);
    if (!claude.ok) {
      log.warn(claude.message);
      setNotice({
        kind: "claudeMissing",
        message: claude.message,
        actions: [
          { label: "Set arcadia.claudePath", command: "openSettings" },
          { label: "How to install", command: "openInstallDocs" },
          { label: "Dismiss", command: "dismissNotice" },
        ],
      });
      await vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
      return;
    }
    if (notice?.kind === "claudeMissing") setNotice(null);
    const extraArgs = config().get<string[]>("extraArgs", []).filter((a) => typeof a === "string");
    await manager.open({ command: claude.command, args: extraArgs }, cwd);
  };

  const restartAgent = async (agentId: string) => {
    const claude = await locateClaude(config().get<string>("claudePath", ""), process.env.PATH);
    if (!claude.ok) {
      void vscode.window.showErrorMessage(claude.message);
      return;
    }
    manager.restart(agentId, claude.command);
  };

  /** An answer from the panel or a notification: an Arcadia approval or a Claude Code prompt. */
  const answerPrompt = (id: string, decision: "allow" | "deny" | "alwaysAllow") => {
    if (approvals.decide(id, decision === "deny" ? "deny" : "allow")) return;
    if (tracker.calls().some((c) => c.diffId === id)) {
      if (decision === "deny") tools.ports.diffs.reject(id);
      else tools.ports.diffs.accept(id);
      return;
    }
    if (!permissions.decide(id, decision)) log.info(`prompt ${id} was already answered (in the terminal or elsewhere); the late answer is ignored`);
  };

  const revealPrompt = (id: string) => {
    const permission = permissions.pending().find((p) => p.id === id);
    if (permission) return manager.focus(permission.agentId);
    if (tracker.calls().some((c) => c.diffId === id)) return tools.reveal(id);
    const approval = approvals.pending().find((a) => a.id === id);
    if (approval?.agentId) manager.focus(approval.agentId);
  };

  const forceFinish = async (action: "cancel" | "complete", callId?: string) => {
    const id = callId ?? (await pickCall(tracker.calls(), (agentId) => (agentId && manager.agentInfo(agentId)?.name) || "unknown agent", action === "cancel" ? "Cancel" : "Complete"));
    if (!id) return;
    const done = action === "cancel" ? tracker.cancelCall(id) : tracker.completeCall(id);
    if (!done) log.info(`tool call ${id} had already finished; nothing to ${action}`);
  };

  const router = createMessageRouter(
    {
      webviewReady: async () => {
        await manager.restore();
        const agents = manager.views();
        provider.post({ type: "snapshot", agents, live: board.views(agents.map((a) => a.id)), notice });
      },
      openClaude: () => openClaude(),
      openSessionsFolder: async () => {
        const cwd = await chooseLaunchFolder(context.workspaceState);
        if (cwd) await pickSession(projectDirFor(cwd));
      },
      focusAgent: (m) => manager.focus(m.id),
      closeAgent: (m) => manager.close(m.id),
      renameAgent: (m) => manager.rename(m.id, m.name),
      cancelCall: (m) => forceFinish("cancel", m.callId),
      completeCall: (m) => forceFinish("complete", m.callId),
      answerPrompt: (m) => answerPrompt(m.id, m.decision),
      revealPrompt: (m) => revealPrompt(m.id),
      restartAgent: (m) => restartAgent(m.id),
      noticeAction: async (m) => {
        if (m.command === "openSettings") await vscode.commands.executeCommand("workbench.action.openSettings", "arcadia.claudePath");
        else if (m.command === "openInstallDocs") await vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS));
        else setNotice(null);
      },
    },
    log,
  );
  const provider = new ArcadiaViewProvider(context.extensionUri, router);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: false } }));

  // Nobody to answer a permission prompt here (no panel, no notifications): the hook says "no
  // decision" at once and the terminal's own prompt is the only one.
  const updateAvailability = () => permissions.setAvailable(provider.exists || config().get<boolean>("notify", false));
  updateAvailability();
  context.subscriptions.push(
    provider.onDidChangeView(updateAvailability),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("arcadia.notify")) updateAvailability();
    }),
  );
  context.subscriptions.push({
    dispose: board.onChange((live) => provider.post({ type: "agentLive", live })),
  });
  context.subscriptions.push({
    dispose: permissions.onChange((change) => {
      if (change.type !== "added" || provider.visible) return;
      const name = manager.agentInfo(change.request.agentId)?.name ?? "An agent";
      void notifyPermission({ id: change.request.id, agentName: name, subject: change.request.subject }, answerPrompt, () => manager.focus(change.request.agentId));
    }),
  });

  /**
   * Nobody will read these results any more: end the agent's MCP calls (which also withdraws their
   * linked approvals and diffs and stops their commands) so no late Allow runs anything for nobody.
   */
  const endCallsOf = (agentId: string, reason: string) => {
    for (const call of tracker.calls()) if (call.agentId === agentId) tracker.cancelCall(call.id, reason);
  };

  const statusBar = new AgentStatusBar("arcadia.showPanel");
  context.subscriptions.push(statusBar);
  context.subscriptions.push(
    manager.onDidChange((change) => {
      if (change.type === "updated") {
        provider.post({ type: "agentUpdated", agent: change.agent });
        if (change.agent.status === "exited") endCallsOf(change.agent.id, "ended because its claude process exited");
      } else if (change.type === "permissionPromptLeft") {
        // Answered in the terminal ("Yes" does not end our hook request): the panel's buttons go.
        permissions.answeredElsewhere(change.agentId, { before: change.at });
      } else if (change.type === "removed") {
        provider.post({ type: "agentRemoved", id: change.id });
        endCallsOf(change.id, "ended because its agent was closed");
        tools.closeAgentTerminals(change.id);
        board.forget(change.id);
        permissions.forgetAgent(change.id);
      } else if (change.type === "turnFinished") void notifyTurnFinished(change.agent, (id) => manager.focus(id));
      statusBar.update(manager.views());
    }),
  );

  context.subscriptions.push(
    vscode.commands.registerCommand("arcadia.showPanel", () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`)),
    vscode.commands.registerCommand("arcadia.openClaude", () => openClaude()),
    vscode.commands.registerCommand("arcadia.openClaudeInFolder", () => openClaude(true)),
    vscode.commands.registerCommand("arcadia.openSessions", async () => {
      const cwd = await chooseLaunchFolder(context.workspaceState);
      if (cwd) await pickSession(projectDirFor(cwd));
    }),
    vscode.commands.registerCommand("arcadia.showLog", () => log.show()),
    vscode.commands.registerCommand("arcadia.cancelToolCall", (callId?: unknown) => forceFinish("cancel", typeof callId === "string" ? callId : undefined)),
    vscode.commands.registerCommand("arcadia.completeToolCall", (callId?: unknown) => forceFinish("complete", typeof callId === "string" ? callId : undefined)),
  );

  // Just after activation, not inside it (nothing here needs to hold up the extension host):
  setImmediate(() => {
    // Agents Arcadia launched before a reload call its server (MCP tools, hooks): start it for them.
    if (bindings.load().some((b) => (b.launchFiles ?? []).length > 0)) void server();
    // Cards come back after a reload even before the panel is opened (status bar counts).
    void manager.restore().then(() => statusBar.update(manager.views()));
  });
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // What VS Code counts as an extension's activation: loading its code, then the activate() call.
  const activateMs = performance.now() - started;
  const activateCpuMs = cpuMs(process.cpuUsage(cpuAtStart));
  log.info(
    `Arcadia activated in ${Math.round(moduleLoadMs + activateMs)} ms (module load ${moduleLoadMs.toFixed(1)} ms + activate ${activateMs.toFixed(1)} ms; ` +
      `CPU ${moduleLoadCpuMs.toFixed(1)} + ${activateCpuMs.toFixed(1)} ms); transcripts for this workspace live in ${projectDirFor(folder)}`,
  );
}

/** VS Code waits for the returned promise (within its shutdown limit) before the host goes. */
export function deactivate(): Promise<void> | undefined {
  const cleanup = shutdown;
  shutdown = undefined;
  return cleanup?.();
}

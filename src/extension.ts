/**
 * VS Code entry point: wiring only. The agents (src/agents) over VS Code's terminals, the panel,
 * the status bar and the commands; one loopback server per window (MCP tools, tracker, approvals,
 * Claude Code's hooks), started on first need; the process monitor. Each piece owns its logic and
 * registers its own commands.
 */
import { vscode } from "./vscode/api";
import type { CardLiveSource } from "./agents/agent";
import type { ExtensionMessage } from "./shared/protocol";
import { followAgentChanges } from "./agents/agentChanges";
import { cardLiveSource, followHookTools } from "./agents/hookToolsSync";
import { AgentManager } from "./agents/agentManager";
import { LiveBoard } from "./agents/liveBoard";
import { PromptDesk } from "./agents/promptDesk";
import { ApprovalQueue } from "./core/mcp/approvalQueue";
import { StillRunningCommands } from "./core/mcp/stillRunningCommands";
import { ToolCallTracker } from "./core/mcp/toolCallTracker";
import { ClaudeProcessMonitor } from "./core/process/claudeProcessMonitor";
import type { RunningLoopbackServer } from "./core/server";
import { linkedResources } from "./core/tools/linkedResources";
import { claudeConfigDir, projectDirFor } from "./core/transcript/projectDir";
import { DisposableStore } from "./core/util/emitter";
import { createMessageRouter } from "./panel/messageRouter";
import { panelActions } from "./panel/panelActions";
import { PanelNotice } from "./vscode/panelNotice";
import { SandboxNotice } from "./vscode/sandboxNotice";
import { ArcadiaViewProvider, PANEL_VIEW_ID } from "./panel/viewProvider";
import { activationTimer } from "./vscode/activationTiming";
import { WorkspaceBindingStore } from "./vscode/bindingStore";
import { registerForceFinishCommands } from "./vscode/callPicker";
import { ClaudeLauncher } from "./vscode/claudeLauncher";
import { launchExtrasFor, removeLaunchFiles } from "./vscode/launchFiles";
import { createCardExtras } from "./vscode/cardExtras";
import { createHookEndpoint } from "./vscode/hookEndpoint";
import { startArcadiaServer } from "./vscode/mcpHost";
import { followPermissionPrompts } from "./vscode/permissionNotifications";
import { registerSessionsView } from "./vscode/sessionsView";
import { RaceBook } from "./agents/raceBook";
import { registerRaces, workspaceRaceStore } from "./vscode/races";
import { AgentStatusBar } from "./vscode/statusBar";
import { VscodeTerminalHost } from "./vscode/terminalHost";
import { createVscodeToolPorts } from "./vscode/tools";
import { attentionNotifications } from "./vscode/attentionNotifications";
import { logSettingChanges } from "./vscode/settingChanges";
import { CardVisibility } from "./vscode/cardVisibility";
import { registerNextNeedsYou } from "./vscode/nextNeedsYouCommand";

/** What deactivate() hands VS Code to wait for: the server closed, followers and watchers stopped. */
let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const timer = activationTimer();
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const log = store.add(vscode.window.createOutputChannel("Arcadia", { log: true }));
  const agentName = (id: string | undefined): string | undefined => (id ? manager.agentInfo(id)?.name : undefined);

  const approvals = new ApprovalQueue();
  const tools = store.add(createVscodeToolPorts({ approvals, agentLabel: (id) => agentName(id) ?? "Agent", agentCwd: (id) => manager.agentInfo(id)?.cwd }));
  const tracker = new ToolCallTracker(linkedResources(tools.ports));
  const commands = tools.ports.commands;
  const stillRunning = store.add(
    new StillRunningCommands(tracker, { whenEnded: (id) => commands.whenEnded?.(id) ?? Promise.resolve(), interrupt: (id) => commands.interrupt(id) }),
  );
  const { permissions, hookTools, collisions, hooks } = createHookEndpoint(log, { isKnown: (id) => manager.agentInfo(id) !== undefined, name: agentName });
  store.add(collisions);
  const hooksShowTools = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("liveToolsFromHooks", true);
  let serverReady: Promise<RunningLoopbackServer | undefined> | undefined;
  // The sandbox is looked for with the server (the first agent): the panel says early if there is none.
  const server = (): Promise<RunningLoopbackServer | undefined> =>
    (serverReady ??= startArcadiaServer(context, log, { tracker, ports: tools.ports, hooks }).finally(() => void tools.ports.sandbox?.availability()));

  const bindings = new WorkspaceBindingStore(context.workspaceState);
  const processes = new ClaudeProcessMonitor({ configDir: claudeConfigDir(), onError: (err) => log.warn(`process monitor: ${String(err)}`) });
  const adoptTerminals = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("adoptTerminals", true);
  const liveFacts: CardLiveSource = (agentId, sessionId) => cardLiveSource(hookTools, board, hooksShowTools)(agentId, sessionId);
  const manager = new AgentManager({
    terminals: new VscodeTerminalHost({ visible: (): boolean => provider.visible, show: () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`) }),
    store: bindings,
    log,
    projectDirFor,
    processes,
    adoptTerminals,
    launchExtras: launchExtrasFor(server),
    removeLaunchFiles,
    liveFacts,
  });
  // The broker first: closing the server would abort pending hook requests, read as "answered in the terminal".
  shutdown = () => (permissions.dispose(), Promise.all([serverReady?.then((s) => s?.close()), processes.stop(), manager.dispose()]).then(() => undefined));

  const races = store.add(new RaceBook(workspaceRaceStore(context.workspaceState), (m) => log.warn(m)));
  const extras = createCardExtras({ manager, collisions, hookTools, races, log, workspaceState: context.workspaceState });
  const board = store.add(new LiveBoard(tracker, approvals, permissions, hookTools, Date.now, { ...extras.sources, stillRunning }));
  const focusAgent = (id: string) => manager.focus(id);
  const prompts = new PromptDesk({ approvals, tracker, permissions, diffs: { ...tools.ports.diffs, reveal: (id) => tools.reveal(id) }, focusAgent, log });
  const post: ArcadiaViewProvider["post"] = (message) => provider.post(message);
  const notice = new PanelNotice(post);
  const sandboxNotice = new SandboxNotice(notice, context.globalState);
  store.add(tools.onSandboxUnavailable((why) => (log.warn(`No sandbox for commands: ${why.reason}. ${why.fix}`), sandboxNotice.show(why))));
  const launcher = new ClaudeLauncher(context, manager, notice, log);
  const visibility = new CardVisibility({
    get visible(): boolean {
      return provider.visible;
    },
  });
  const snapshot = (): ExtensionMessage => ({
    type: "snapshot",
    agents: manager.views(),
    live: board.views(manager.views().map((a) => a.id)),
    notice: notice.current,
  });
  const provider = new ArcadiaViewProvider(
    context.extensionUri,
    createMessageRouter(panelActions({ manager, board, prompts, launcher, notice, sandboxNotice, visibility, stillRunning, post }), log),
    snapshot,
  );
  const statusBar = store.add(new AgentStatusBar("arcadia.showPanel"));
  const notifications = attentionNotifications({ seen: (id) => visibility.seen(id), pendingPermissions: (id) => permissions.pending(id).length, focusAgent });

  store.add(vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: false } }));
  store.add(manager.onDidReadTranscript(({ agentId, events }) => board.transcriptEvents(agentId, events)));
  store.add(board.onDidChange((live) => (post({ type: "agentLive", live }), manager.refresh(live.agentId))));
  store.add(
    followHookTools({
      feed: hookTools,
      onDidReadTranscript: manager.onDidReadTranscript,
      onDidChange: manager.onDidChange,
      sessionOf: (id) => manager.agentInfo(id)?.sessionId,
      refresh: (id) => manager.refresh(id),
    }),
  );
  for (const d of followPermissionPrompts({ permissions, panel: provider, seen: (id) => visibility.seen(id), prompts, agentName, focusAgent })) store.add(d);
  store.add(
    followAgentChanges({
      onDidChange: manager.onDidChange,
      views: () => manager.views(),
      tracker,
      permissions,
      board,
      closeCommandsTerminal: (id) => tools.closeAgentTerminals(id),
      agentUpdated: (agent) => (post({ type: "agentUpdated", agent }), notifications.updated(agent)),
      agentRemoved: (id) => (notifications.removed(id), post({ type: "agentRemoved", id })),
      turnFinished: (agent) => notifications.turnFinished(agent),
      countsChanged: (agents) => statusBar.update(agents),
    }),
  );
  for (const d of [
    ...extras.disposables,
    ...launcher.register(),
    ...registerForceFinishCommands(tracker, (id) => agentName(id) ?? "unknown agent", log),
    ...registerSessionsView({ context, manager, launcher, races, log }),
  ])
    store.add(d);
  for (const d of registerRaces({ context, book: races, manager, launcher, worktrees: extras.worktreeDeps, log })) store.add(d);
  store.add(vscode.commands.registerCommand("arcadia.showPanel", () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`)));
  store.add(vscode.commands.registerCommand("arcadia.showLog", () => log.show()));
  store.add(logSettingChanges(log));
  store.add(
    registerNextNeedsYou({
      views: () => manager.views(),
      focusTerminal: focusAgent,
      revealCard: (id) => post({ type: "revealAgent", id }),
      revealFirstPrompt: (id) => void prompts.reveal(board.view(id).prompts[0]?.id ?? ""),
    }),
  );

  // Just after activation, not inside it: agents Arcadia launched before a reload need its server
  // (MCP tools, hooks), and cards come back before the panel is opened (status bar counts).
  setImmediate(() => {
    if (bindings.load().some((b) => (b.launchFiles ?? []).length > 0)) void server();
    void manager.restore().then(() => statusBar.update(manager.views()));
  });
  log.info(`${timer.summary()}; transcripts for this workspace live in ${projectDirFor(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath)}`);
}

/** VS Code waits for the returned promise (within its shutdown limit) before the host goes. */
export function deactivate(): Promise<void> | undefined {
  const cleanup = shutdown;
  shutdown = undefined;
  return cleanup?.();
}

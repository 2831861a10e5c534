/**
 * VS Code entry point: wires the agent manager (src/agents) to VS Code's terminals, the panel's
 * webview, the status bar and the commands. All the logic lives behind those seams.
 */
import * as vscode from "vscode";
import { AgentManager } from "./agents/agentManager";
import { projectDirFor } from "./core/transcript/projectDir";
import { ArcadiaViewProvider, PANEL_VIEW_ID } from "./panel/viewProvider";
import { createMessageRouter } from "./panel/messageRouter";
import type { NoticeView } from "./shared/protocol";
import { WorkspaceBindingStore } from "./vscode/bindingStore";
import { locateClaude } from "./vscode/claudeLocator";
import { chooseLaunchFolder } from "./vscode/folderChoice";
import { pickSession } from "./vscode/sessionsPicker";
import { AgentStatusBar } from "./vscode/statusBar";
import { VscodeTerminalHost } from "./vscode/terminalHost";
import { notifyTurnFinished } from "./vscode/turnNotifications";

const INSTALL_DOCS = "https://docs.anthropic.com/en/docs/claude-code/setup";

export function activate(context: vscode.ExtensionContext): void {
  const started = Date.now();
  const log = vscode.window.createOutputChannel("Arcadia", { log: true });
  context.subscriptions.push(log);

  const manager = new AgentManager({
    terminals: new VscodeTerminalHost(),
    store: new WorkspaceBindingStore(context.workspaceState),
    log,
    projectDirFor: (cwd) => projectDirFor(cwd),
  });
  context.subscriptions.push({ dispose: () => void manager.dispose() });

  let notice: NoticeView | null = null;
  const setNotice = (next: NoticeView | null) => {
    notice = next;
    provider.post({ type: "notice", notice });
  };

  const openClaude = async (askFolder = false) => {
    const cwd = await chooseLaunchFolder(context.workspaceState, askFolder);
    if (!cwd) return;
    const config = vscode.workspace.getConfiguration("arcadia");
    const claude = await locateClaude(config.get<string>("claudePath", ""), process.env.PATH);
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
    const extraArgs = config.get<string[]>("extraArgs", []).filter((a) => typeof a === "string");
    await manager.open({ command: claude.command, args: extraArgs }, cwd);
  };

  const router = createMessageRouter(
    {
      webviewReady: async () => {
        await manager.restore();
        provider.post({ type: "snapshot", agents: manager.views(), notice });
      },
      openClaude: () => openClaude(),
      openSessionsFolder: async () => {
        const cwd = await chooseLaunchFolder(context.workspaceState);
        if (cwd) await pickSession(projectDirFor(cwd));
      },
      focusAgent: (m) => manager.focus(m.id),
      closeAgent: (m) => manager.close(m.id),
      renameAgent: (m) => manager.rename(m.id, m.name),
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

  const statusBar = new AgentStatusBar("arcadia.showPanel");
  context.subscriptions.push(statusBar);
  context.subscriptions.push(
    manager.onDidChange((change) => {
      if (change.type === "updated") provider.post({ type: "agentUpdated", agent: change.agent });
      else if (change.type === "removed") provider.post({ type: "agentRemoved", id: change.id });
      else void notifyTurnFinished(change.agent, (id) => manager.focus(id));
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
  );

  // Cards come back after a reload even before the panel is opened (status bar counts).
  void manager.restore().then(() => statusBar.update(manager.views()));
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  log.info(`Arcadia activated in ${Date.now() - started} ms; transcripts for this workspace live in ${projectDirFor(folder)}`);
}

export function deactivate(): void {}

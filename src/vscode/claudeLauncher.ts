/**
 * Starting `claude` for a new agent ("Open Claude Code", "… in Folder…") and again for an exited
 * one (Restart). A missing binary is a notice on the panel with what to do about it, not a failed
 * terminal; it goes away once a launch works.
 */
import { vscode } from "./api";
import type { AgentManager } from "../agents/agentManager";
import type { Log } from "../agents/ports";
import type { PanelNotice } from "../panel/panelNotice";
import type { AgentView, NoticeCommand } from "../shared/protocol";
import { PANEL_VIEW_ID } from "../panel/viewProvider";
import { locateClaude } from "./claudeLocator";
import { chooseLaunchFolder } from "./folderChoice";
import { prepareWorktree } from "./worktreeLaunch";

export const INSTALL_DOCS = "https://docs.anthropic.com/en/docs/claude-code/setup";

const config = () => vscode.workspace.getConfiguration("arcadia");

export class ClaudeLauncher {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly manager: AgentManager,
    private readonly notice: PanelNotice,
    private readonly log: Log,
  ) {}

  /** The palette commands that launch. */
  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand("arcadia.openClaude", () => this.open()),
      vscode.commands.registerCommand("arcadia.openClaudeInFolder", () => this.open(true)),
      vscode.commands.registerCommand("arcadia.openClaudeInWorktree", () => this.openInWorktree()),
    ];
  }

  async open(askFolder = false): Promise<void> {
    const cwd = await chooseLaunchFolder(this.context.workspaceState, askFolder);
    if (cwd) await this.launchIn(cwd);
  }

  /** A new agent isolated in a new git worktree of the workspace's repository (worktreeLaunch.ts). */
  async openInWorktree(): Promise<void> {
    const folder = await chooseLaunchFolder(this.context.workspaceState, false);
    if (!folder) return;
    const tree = await prepareWorktree(folder, this.context.workspaceState, this.manager.views().length + 1, this.log);
    if (tree) await this.launchIn(tree.path);
  }

  /** `claude --resume <id>` in a new terminal in the session's folder, with a card following it. */
  async resume(sessionId: string, cwd: string): Promise<void> {
    await this.launchIn(cwd, sessionId);
  }

  /** A new agent in `cwd` with `moreArgs` after the settings' (a race member's `--model`): its card, or undefined when claude is missing. */
  launchWith(cwd: string, moreArgs: string[]): Promise<AgentView | undefined> {
    return this.launchIn(cwd, undefined, moreArgs);
  }

  private async launchIn(cwd: string, resume?: string, moreArgs: string[] = []): Promise<AgentView | undefined> {
    const claude = await locateClaude(config().get<string>("claudePath", ""), process.env.PATH);
    if (!claude.ok) {
      this.log.warn(claude.message);
      this.notice.set({
        kind: "claudeMissing",
        message: claude.message,
        actions: [
          { label: "Set arcadia.claudePath", command: "openSettings" },
          { label: "How to install", command: "openInstallDocs" },
          { label: "Dismiss", command: "dismissNotice" },
        ],
      });
      await vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
      return undefined;
    }
    if (this.notice.current?.kind === "claudeMissing") this.notice.set(null);
    const extraArgs = config().get<string[]>("extraArgs", []).filter((a) => typeof a === "string");
    return this.manager.open({ command: claude.command, args: [...extraArgs, ...moreArgs] }, cwd, resume);
  }

  async restart(agentId: string): Promise<void> {
    const claude = await locateClaude(config().get<string>("claudePath", ""), process.env.PATH);
    if (!claude.ok) {
      void vscode.window.showErrorMessage(claude.message);
      return;
    }
    this.manager.restart(agentId, claude.command);
  }

  /** A button of the notice: its own action, then (for Dismiss) the notice goes. */
  async noticeAction(command: NoticeCommand): Promise<void> {
    if (command === "openSettings") await vscode.commands.executeCommand("workbench.action.openSettings", "arcadia.claudePath");
    else if (command === "openInstallDocs") await vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS));
    else if (command === "dismissNotice") this.notice.set(null);
  }
}

/**
 * Starting `claude` for a new agent ("Open Claude Code", "… in Folder…") and again for an exited
 * one (Restart). A missing binary is a notice on the panel with what to do about it, not a failed
 * terminal; it goes away once a launch works. Run by another extension or a keybinding, the open
 * commands take a task typed at the new agent's prompt once it is ready, and a worktree's name
 * (core/launch/launchRequest.ts); they return the new agent's id.
 */
import { vscode } from "../api";
import { combinedDisposable } from "../../core/util";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { Log } from "../../agents/ports";
import type { PanelNotice } from "../notices/panelNotice";
import type { AgentFacts, NoticeCommand } from "../../shared/protocol";
import { NOT_TAKEN, notReadyReason, type ReadinessSource, typeTask, whenReady, whenTaken } from "../../agents/launch/agentReadiness";
import { type LaunchRequest, parseLaunchRequest } from "../../core/launch";
import { errorMessage } from "../../core/util";
import { PANEL_VIEW_ID } from "../viewIds";
import { locateClaude } from "./claudeLocator";
import { chooseLaunchFolder } from "./folderChoice";
import { prepareWorktree } from "../worktrees/worktreeLaunch";

export const INSTALL_DOCS = "https://docs.anthropic.com/en/docs/claude-code/setup";

const config = () => vscode.workspace.getConfiguration("arcadia");

export class ClaudeLauncher {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly manager: AgentManager,
    /** The cards: a task is typed once the new agent's card says it is ready. */
    private readonly cards: ReadinessSource,
    private readonly notice: PanelNotice,
    private readonly log: Log,
  ) {}

  /** The palette commands that launch. */
  register(): vscode.Disposable {
    return combinedDisposable(
      vscode.commands.registerCommand("arcadia.openClaude", (arg?: unknown) => this.fromCommand("Open Claude Code", arg, false, (r) => this.open(false, r))),
      vscode.commands.registerCommand("arcadia.openClaudeInFolder", (arg?: unknown) =>
        this.fromCommand("Open Claude Code in Folder", arg, false, (r) => this.open(true, r)),
      ),
      vscode.commands.registerCommand("arcadia.openClaudeInWorktree", (arg?: unknown) =>
        this.fromCommand("Open Claude Code in New Worktree", arg, true, (r) => this.openInWorktree(r)),
      ),
    );
  }

  /** A command's argument checked (untrusted: any extension or keybinding may pass one), then the launch: the new agent's id. */
  private async fromCommand(
    title: string,
    arg: unknown,
    worktree: boolean,
    launch: (request: LaunchRequest) => Promise<string | undefined>,
  ): Promise<string | undefined> {
    const parsed = parseLaunchRequest(arg, { worktree });
    if (!parsed.ok) {
      this.log.warn(`${title}: refused its argument: ${parsed.problem}`);
      void vscode.window.showErrorMessage(`${title}: ${parsed.problem}.`);
      return undefined;
    }
    return launch(parsed.request);
  }

  async open(askFolder = false, request: LaunchRequest = {}): Promise<string | undefined> {
    const cwd = await chooseLaunchFolder(this.context.workspaceState, askFolder);
    return cwd ? this.launchAsked(cwd, request) : undefined;
  }

  /** A new agent isolated in a new git worktree of the workspace's repository (worktreeLaunch.ts). */
  async openInWorktree(request: LaunchRequest = {}): Promise<string | undefined> {
    const folder = await chooseLaunchFolder(this.context.workspaceState, false);
    if (!folder) return undefined;
    const tree = await prepareWorktree(folder, this.context.workspaceState, this.manager.agentIds().length + 1, this.log, request.worktree);
    return tree ? this.launchAsked(tree.path, request) : undefined;
  }

  /** Launches in `cwd`; the request's task is typed at the prompt once the agent is ready (not awaited: the command returns at once). */
  private async launchAsked(cwd: string, request: LaunchRequest): Promise<string | undefined> {
    const view = await this.launchIn(cwd, undefined, [], request.sandbox);
    if (view && request.prompt !== undefined) {
      const prompt = request.prompt;
      void this.typeWhenReady(view, prompt).catch((err) => this.log.warn(`${view.name}: the task was not typed: ${errorMessage(err)}`));
    }
    return view?.id;
  }

  private async typeWhenReady(view: AgentFacts, prompt: string): Promise<void> {
    const readiness = await whenReady(this.cards, view.id);
    if (readiness !== "ready") throw new Error(notReadyReason(readiness));
    const terminal = this.manager.agentInfo(view.id)?.terminal;
    if (!terminal?.type) throw new Error("its terminal cannot be typed into");
    const typing = { type: (text: string) => terminal.type!(text), whenTaken: (ms: number) => whenTaken(this.cards, view.id, ms) };
    const { taken } = await typeTask(typing, prompt);
    this.log.info(`${view.name}: task typed at its prompt (${prompt.length} characters)${taken ? "" : `; ${NOT_TAKEN}`}`);
  }

  /** `claude --resume <id>` in a new terminal in the session's folder, with a card following it. */
  async resume(sessionId: string, cwd: string): Promise<void> {
    await this.launchIn(cwd, sessionId);
  }

  /** A new agent in `cwd` with `moreArgs` after the settings' (a race member's `--model`): its card, or undefined when claude is missing. */
  launchWith(cwd: string, moreArgs: string[]): Promise<AgentFacts | undefined> {
    return this.launchIn(cwd, undefined, moreArgs);
  }

  /** `sandbox`: the launch's own choice (its request's), else arcadia.agentSandbox's. */
  private async launchIn(cwd: string, resume?: string, moreArgs: string[] = [], sandbox?: "on" | "off"): Promise<AgentFacts | undefined> {
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
    const extraArgs = config()
      .get<string[]>("extraArgs", [])
      .filter((a) => typeof a === "string");
    return this.manager.open({ command: claude.command, args: [...extraArgs, ...moreArgs], ...(sandbox ? { sandbox } : {}) }, cwd, resume);
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

/**
 * Where commands cannot be confined, the panel says so once: why, what runs unasked meanwhile,
 * and how to get the sandbox. Dismissed, the same reason is not shown again (kept across windows);
 * a different reason (bubblewrap installed but refused) is. The same for Claude Code's own sandbox
 * of the agents' shell commands (arcadia.agentSandbox: bubblewrap and socat on Linux, none on Windows).
 */
import { vscode } from "../api";
import type { SandboxAvailability } from "../../core/sandbox";
import type { AgentSandboxAvailability } from "../../core/agentSandbox";
import type { PanelNotice } from "./panelNotice";

const DISMISSED_KEY = "arcadia.sandboxNoticeDismissed";
const AGENT_DISMISSED_KEY = "arcadia.agentSandboxNoticeDismissed";

export class SandboxNotice {
  /** The reason the notice on show now gives. */
  private shown: string | undefined;

  constructor(
    private readonly notice: PanelNotice,
    private readonly state: vscode.Memento,
  ) {}

  /** No sandbox: tell, unless the user switched it off or every command asks anyway. */
  show(why: Extract<SandboxAvailability, { available: false }>): void {
    const arcadia = vscode.workspace.getConfiguration("arcadia");
    if (arcadia.get<string>("sandbox") === "off" || arcadia.get<string>("mcp.commandApproval") === "always") return;
    if (this.state.get<string>(DISMISSED_KEY) === why.reason || this.notice.current) return;
    this.shown = why.reason;
    this.notice.set({
      kind: "sandboxMissing",
      message:
        `Commands your agents run without asking need a sandbox, and there is none: ${why.reason}. ` +
        "Until there is one, only read-only commands (ls, cat, git status, git diff, git log…) run without asking; the others ask you first. " +
        why.fix,
      actions: [
        { label: "Sandbox settings", command: "openSandboxSettings" },
        { label: "Dismiss", command: "dismissNotice" },
      ],
    });
  }

  /** Agents launched "on" start without Claude Code's sandbox here: tell why and what to install, once per reason. */
  showForAgents(why: Extract<AgentSandboxAvailability, { available: false }>): void {
    if (this.state.get<string>(AGENT_DISMISSED_KEY) === why.reason || this.notice.current) return;
    this.shown = why.reason;
    this.notice.set({
      kind: "agentSandboxMissing",
      message: `Your agents' shell commands cannot run in Claude Code's sandbox: ${why.reason}. ${why.fix}`,
      actions: [
        { label: "Agent sandbox settings", command: "openSandboxSettings" },
        { label: "Dismiss", command: "dismissNotice" },
      ],
    });
  }

  /** A button of its notice; false when the action is not one of this notice's. */
  async act(command: string): Promise<boolean> {
    const kind = this.notice.current?.kind;
    if (kind !== "sandboxMissing" && kind !== "agentSandboxMissing") return false;
    const setting = kind === "sandboxMissing" ? "arcadia.sandbox" : "arcadia.agentSandbox";
    if (command === "openSandboxSettings") await vscode.commands.executeCommand("workbench.action.openSettings", setting);
    else if (command === "dismissNotice") {
      await this.state.update(kind === "sandboxMissing" ? DISMISSED_KEY : AGENT_DISMISSED_KEY, this.shown);
      this.notice.set(null);
    } else return false;
    return true;
  }
}

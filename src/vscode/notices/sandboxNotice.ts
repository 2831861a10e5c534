/**
 * Where commands cannot be confined, the panel says so once: why, what runs unasked meanwhile,
 * and how to get the sandbox. Dismissed, the same reason is not shown again (kept across windows);
 * a different reason (bubblewrap installed but refused) is.
 */
import { vscode } from "../api";
import type { SandboxAvailability } from "../../core/sandbox";
import type { PanelNotice } from "./panelNotice";

const DISMISSED_KEY = "arcadia.sandboxNoticeDismissed";

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

  /** A button of its notice; false when the action is not one of this notice's. */
  async act(command: string): Promise<boolean> {
    if (this.notice.current?.kind !== "sandboxMissing") return false;
    if (command === "openSandboxSettings") await vscode.commands.executeCommand("workbench.action.openSettings", "arcadia.sandbox");
    else if (command === "dismissNotice") {
      await this.state.update(DISMISSED_KEY, this.shown);
      this.notice.set(null);
    } else return false;
    return true;
  }
}

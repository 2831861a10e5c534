/**
 * "Agent #2 needs permission: Bash: rm -rf build" with Allow / Deny / Focus, when the user cannot
 * see the card (panel hidden, card scrolled away, window unfocused) and asked for notifications
 * (`arcadia.notify`). A late click after the
 * prompt was answered elsewhere does nothing: the answer goes through the same decide() as the panel's.
 */
import { vscode } from "./api";
import type { PermissionBroker } from "../core/hooks/permissionBroker";
import type { PromptDesk } from "../agents/promptDesk";

export interface PermissionNotice {
  id: string;
  agentName: string;
  subject: string;
}

export async function notifyPermission(
  prompt: PermissionNotice,
  answer: (id: string, decision: "allow" | "deny") => void,
  focus: () => void,
): Promise<void> {
  if (!vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false)) return;
  const choice = await vscode.window.showWarningMessage(`${prompt.agentName} needs permission: ${prompt.subject}`, "Allow", "Deny", "Focus");
  if (choice === "Allow") answer(prompt.id, "allow");
  else if (choice === "Deny") answer(prompt.id, "deny");
  else if (choice === "Focus") focus();
}

export interface PermissionPromptDeps {
  permissions: PermissionBroker;
  panel: { readonly exists: boolean; onDidChangeView: vscode.Event<void> };
  /** The user can see this agent's card now. */
  seen(agentId: string): boolean;
  prompts: PromptDesk;
  agentName(agentId: string): string | undefined;
  focusAgent(agentId: string): void;
}

/**
 * Who can answer Claude Code's permission prompts here. With no panel and no notifications the
 * hook says "no decision" at once and the terminal's own prompt is the only one; with the panel
 * hidden and notifications on, a prompt also pops up.
 */
export function followPermissionPrompts({ permissions, panel, seen, prompts, agentName, focusAgent }: PermissionPromptDeps): vscode.Disposable[] {
  const notifyOn = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false);
  const updateAvailability = () => permissions.setAvailable(panel.exists || notifyOn());
  updateAvailability();
  return [
    panel.onDidChangeView(updateAvailability),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("arcadia.notify")) updateAvailability();
    }),
    permissions.onDidChange((change) => {
      if (change.type !== "added" || seen(change.request.agentId)) return;
      const { id, agentId, subject } = change.request;
      void notifyPermission({ id, agentName: agentName(agentId) ?? "An agent", subject }, (answerId, decision) => prompts.answer(answerId, decision), () => focusAgent(agentId));
    }),
  ];
}

/**
 * "Agent #2 needs permission: Bash: rm -rf build" with Allow / Deny / Focus, when the user cannot
 * see the card (panel hidden, card scrolled away, window unfocused) and asked for notifications
 * (`arcadia.notify`). It stays until the prompt is answered (shown again if it is closed while the
 * prompt is pending: agents/cards/untilAnswered.ts). A late click after the prompt was answered
 * elsewhere does nothing: the answer goes through the same decide() as the panel's.
 */
import { vscode } from "../api";
import { combinedDisposable } from "../../core/util";
import type { PermissionBroker } from "../../core/hooks";
import type { PromptDesk } from "../../agents/tools/promptDesk";
import { distinctMessage, untilAnswered } from "../../agents/cards/untilAnswered";

export interface PermissionNotice {
  id: string;
  agentName: string;
  subject: string;
}

const noticeText = (prompt: Pick<PermissionNotice, "agentName" | "subject">) => `${prompt.agentName} needs permission: ${prompt.subject}`;
/** The messages of the permission notifications open now (each told apart from the others). */
const openMessages = new Map<string, string>();

export async function notifyPermission(
  prompt: PermissionNotice,
  answer: (id: string, decision: "allow" | "deny") => void,
  focus: () => void,
  stillPending: () => boolean = () => false,
): Promise<void> {
  if (!vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false)) return;
  const message = distinctMessage(noticeText(prompt), [...openMessages.values()]);
  openMessages.set(prompt.id, message);
  let choice: string | undefined;
  try {
    choice = await untilAnswered(() => vscode.window.showWarningMessage(message, "Allow", "Deny", "Focus"), stillPending);
  } finally {
    openMessages.delete(prompt.id);
  }
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
export function followPermissionPrompts({ permissions, panel, seen, prompts, agentName, focusAgent }: PermissionPromptDeps): vscode.Disposable {
  const notifyOn = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false);
  const updateAvailability = () => permissions.setAvailable(panel.exists || notifyOn());
  updateAvailability();
  return combinedDisposable(
    panel.onDidChangeView(updateAvailability),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("arcadia.notify")) updateAvailability();
    }),
    permissions.onDidChange((change) => {
      if (change.type !== "added" || seen(change.request.agentId)) return;
      const { id, agentId, subject } = change.request;
      const stillPending = () => permissions.pending(agentId).some((p) => p.id === id);
      void notifyPermission(
        { id, agentName: agentName(agentId) ?? "An agent", subject },
        (answerId, decision) => prompts.answer(answerId, decision),
        () => focusAgent(agentId),
        stillPending,
      );
    }),
  );
}

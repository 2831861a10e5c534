/**
 * "Agent #2 needs permission: Bash: rm -rf build" with Allow / Deny / Focus, when the panel cannot
 * show it (hidden) and the user asked for notifications (`arcadia.notify`). A late click after the
 * prompt was answered elsewhere does nothing: the answer goes through the same decide() as the panel's.
 */
import { vscode } from "./api";

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

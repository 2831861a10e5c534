/** An optional notification when an agent you are not looking at finishes its turn. */
import { vscode } from "./api";
import type { AgentView } from "../shared/protocol";

const OUTCOME: Record<AgentView["lastTurn"], string> = {
  completed: "finished its turn",
  interrupted: "was interrupted",
  error: "stopped on an error",
  none: "is waiting for you",
};

export async function notifyTurnFinished(agent: AgentView, focus: (id: string) => void): Promise<void> {
  if (!vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false)) return;
  if (agent.focused && vscode.window.state.focused) return;
  const choice = await vscode.window.showInformationMessage(`${agent.name} ${OUTCOME[agent.lastTurn]}.`, "Focus");
  if (choice === "Focus") focus(agent.id);
}

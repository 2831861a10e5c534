/**
 * Notifications about agents whose card the user cannot see (src/agents/cards/attention.ts decides when):
 * a turn that finished, and an agent that needs you. Opt-in (`arcadia.notify`).
 */
import { vscode } from "../api";
import type { AgentFacts, NeedsYouView } from "../../shared/protocol";
import { untilAnswered } from "../../agents/cards/untilAnswered";

const OUTCOME: Record<AgentFacts["lastTurn"], string> = {
  completed: "finished its turn",
  interrupted: "was interrupted",
  error: "stopped on an error",
  none: "is idle",
};

const NEED: Record<NeedsYouView["kind"], string> = {
  permission: "needs your permission",
  approval: "needs your approval",
  review: "has a change for you to review",
  question: "has a question for you",
  dialog: "needs you in its terminal",
};

const notifyOn = () => vscode.workspace.getConfiguration("arcadia").get<boolean>("notify", false);

export async function notifyTurnFinished(agent: AgentFacts, focus: (id: string) => void): Promise<void> {
  if (!notifyOn()) return;
  const choice = await vscode.window.showInformationMessage(`${agent.name} ${OUTCOME[agent.lastTurn]}.`, "Focus");
  if (choice === "Focus") focus(agent.id);
}

/** Stays until the agent no longer needs you for it (shown again if closed meanwhile: agents/cards/untilAnswered.ts). */
export async function notifyNeedsYou(
  agent: AgentFacts,
  kind: NeedsYouView["kind"],
  show: (id: string) => void,
  stillNeeded: () => boolean = () => false,
): Promise<void> {
  if (!notifyOn()) return;
  const choice = await untilAnswered(() => vscode.window.showWarningMessage(`${agent.name} ${NEED[kind]}.`, "Show"), stillNeeded);
  if (choice === "Show") show(agent.id);
}

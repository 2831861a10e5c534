import type { AgentView } from "../../src/shared/protocol";

/** What a card says about its agent: the protocol's status, refined by how the last turn ended. */
export type CardStatus = "starting" | "active" | "waiting" | "needsPermission" | "exited" | "interrupted" | "error";

export function cardStatus(agent: Pick<AgentView, "status" | "lastTurn">): CardStatus {
  if (agent.status !== "waiting") return agent.status;
  if (agent.lastTurn === "interrupted") return "interrupted";
  if (agent.lastTurn === "error") return "error";
  return "waiting";
}

export const STATUS_TEXT: Record<CardStatus, string> = {
  starting: "Starting…",
  active: "Working",
  waiting: "Waiting for input",
  needsPermission: "Needs permission",
  exited: "claude exited",
  interrupted: "Interrupted",
  error: "Error",
};

/** "API error, retrying (2/10): Overloaded". */
export function retryText(retry: NonNullable<AgentView["retry"]>): string {
  let count = "";
  if (retry.attempt !== undefined) count = retry.maxRetries !== undefined ? ` (${retry.attempt}/${retry.maxRetries})` : ` (${retry.attempt})`;
  const message = retry.message.trim();
  return `API error, retrying${count}${message ? `: ${message}` : ""}`;
}

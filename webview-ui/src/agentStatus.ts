/** The card's words and status keyword for an agent, from the protocol's one status truth and how its last turn ended. */
import type { CardView, NeedsYouView } from "../../src/shared/protocol";

/**
 * What a card says about its agent: the protocol's status (the extension's one status truth),
 * refined by how the last turn ended. `waiting` is idle: the turn finished and nothing waits on
 * the user (the keyword stays `waiting`: the data-status attribute tests and themes select on).
 */
export type CardStatus = "starting" | "active" | "waiting" | "needsYou" | "compacting" | "exited" | "interrupted" | "error";

export function cardStatus(agent: Pick<CardView, "status" | "lastTurn">): CardStatus {
  if (agent.status !== "waiting") return agent.status;
  if (agent.lastTurn === "interrupted") return "interrupted";
  if (agent.lastTurn === "error") return "error";
  return "waiting";
}

export const STATUS_TEXT: Record<CardStatus, string> = {
  starting: "Starting…",
  active: "Working",
  waiting: "Idle",
  needsYou: "Needs you",
  compacting: "Compacting…",
  exited: "claude exited",
  interrupted: "Interrupted",
  error: "Error",
};

const NEEDS_YOU_TEXT: Record<NeedsYouView["kind"], string> = {
  permission: "Needs you: permission",
  approval: "Needs you: approval",
  review: "Needs you: review the diff",
  question: "Needs you: a question",
  dialog: "Needs you",
};

/** The status line's words: "Needs you" says what for. */
export function statusText(agent: Pick<CardView, "status" | "lastTurn" | "needsYou">): string {
  const status = cardStatus(agent);
  if (status === "needsYou" && agent.needsYou) return NEEDS_YOU_TEXT[agent.needsYou.kind] ?? STATUS_TEXT.needsYou;
  return STATUS_TEXT[status];
}

/**
 * A turn a usage or rate limit stopped says which, and when it resets ("Usage limit reached —
 * resets at 14:00"), instead of "Error": on the agent's line and its card alike.
 */
export function limitInsteadOfError(status: CardStatus, limit: string | null | undefined): string | undefined {
  return status === "error" && limit ? limit : undefined;
}

/** "API error, retrying (2/10): Overloaded". */
export function retryText(retry: NonNullable<CardView["retry"]>): string {
  let count = "";
  if (retry.attempt !== undefined) count = retry.maxRetries !== undefined ? ` (${retry.attempt}/${retry.maxRetries})` : ` (${retry.attempt})`;
  const message = retry.message.trim();
  return `API error, retrying${count}${message ? `: ${message}` : ""}`;
}

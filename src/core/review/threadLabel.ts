/** What a review thread's header says in the editor: whose it is and where it stands. */
import { type AgentReview, type ReviewThread, type ThreadStatus, threadStatus } from "./reviewBook";

const STATUS_WORDS: Record<ThreadStatus, string> = {
  draft: "draft: not sent yet",
  queued: "will send when idle",
  sent: "sent: waiting for the agent's answer",
  addressed: "addressed: its lines changed",
  unaddressed: "not addressed: its lines are unchanged",
  resolved: "resolved",
};

/** "Agent #2 · addressed: its lines changed": what a thread's header says. */
export function threadLabel(review: Pick<AgentReview, "agentName" | "closed">, thread: ReviewThread): string {
  const status = threadStatus(thread);
  const words = !review.closed
    ? STATUS_WORDS[status]
    : status === "draft" || status === "queued"
      ? "draft, kept: the agent was closed"
      : status === "sent"
        ? "sent, not answered: the agent was closed"
        : STATUS_WORDS[status];
  return `${review.agentName}${review.closed ? " (closed)" : ""} · ${words}`;
}

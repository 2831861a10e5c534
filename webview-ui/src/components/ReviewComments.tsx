/** The card's line about review comments on the agent's changes: how many, addressed, queued, and Send. */
import type { SyntheticEvent } from "react";
import type { ReviewCommentsView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "3 review comments — 2 addressed": where the reviewer's comments on the agent's changes stand. */
export function reviewCommentsText(review: ReviewCommentsView): string {
  const parts: string[] = [];
  if (review.addressed + review.unaddressed > 0) parts.push(`${review.addressed} addressed`);
  if (review.awaiting > 0) parts.push(`${review.awaiting} sent, waiting for the answer`);
  if (review.queued > 0) parts.push(`${review.queued} will send when idle`);
  if (review.drafts > 0) parts.push(`${review.drafts} not sent`);
  return `${plural(review.total, "review comment")}${parts.length > 0 ? ` — ${parts.join(" · ")}` : ""}`;
}

/** The card's line of review comments, with "Send N comments" while drafts wait. */
export function ReviewComments({ agentId, name, review }: { agentId: string; name: string; review: ReviewCommentsView | null | undefined }) {
  if (!review) return null;
  const send = (e: SyntheticEvent) => {
    // The card's own click focuses the terminal: this button only sends.
    e.stopPropagation();
    post({ type: "reviewAction", id: agentId, action: "send" });
  };
  return (
    <div
      className="agent-review-comments"
      data-testid="review-comments"
      title="Comments on the agent's Review (its diff), sent to it as one message at its prompt"
    >
      <Codicon name="comment-discussion" className="worktree-icon" />
      <span data-testid="review-comments-text" aria-live="polite">
        {reviewCommentsText(review)}
      </span>
      {review.drafts > 0 && (
        <button
          type="button"
          className="link-button"
          data-testid="review-send"
          aria-label={`Send ${plural(review.drafts, "review comment")} to ${name}`}
          onClick={send}
        >
          Send {plural(review.drafts, "comment")}
        </button>
      )}
    </div>
  );
}

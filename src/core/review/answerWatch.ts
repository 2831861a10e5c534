/**
 * When has an agent answered the review comments sent to it? Once the transcript shows the
 * message arrive as a prompt and then the turn it started end (turn end, an interrupt, a final API
 * error). A turn end read without that prompt is the end of the turn before the send (the status
 * file says "idle" before the transcript's last records are read), not the answer. The prompt is
 * the message by its text AND by its time: another prompt queued while the agent worked is not
 * it, and after a reload an earlier round's message (older than this send) is not it either.
 * A turn cut short (Esc, a final API error such as a usage limit) has not answered: the threads
 * stay "sent" until a later turn (the user's "go on") ends.
 */
import type { TranscriptEvent } from "../transcript";
import { REVIEW_MESSAGE_START } from "./reviewMessage";

/** Clock skew allowed between Arcadia and the CLI's record timestamps (same machine). */
const SKEW_MS = 2_000;

export class AnswerWatch {
  private readonly pending = new Map<string, { sentAt: number; sawPrompt: boolean; cutShort: boolean }>();

  /** The message was typed at the agent's prompt at `sentAt` (ms since the epoch). */
  sent(agentId: string, sentAt: number): void {
    this.pending.set(agentId, { sentAt, sawPrompt: false, cutShort: false });
  }

  isWaiting(agentId: string): boolean {
    return this.pending.has(agentId);
  }

  /** Events read from the agent's transcript: true when they end the answering turn. */
  events(agentId: string, events: readonly TranscriptEvent[]): boolean {
    const pending = this.pending.get(agentId);
    if (!pending) return false;
    for (const event of events) {
      if (event.kind === "prompt" && event.source === "user") {
        const afterTheSend = event.at === undefined || event.at >= pending.sentAt - SKEW_MS;
        if (event.text.includes(REVIEW_MESSAGE_START) && afterTheSend) pending.sawPrompt = true;
      } else if (pending.sawPrompt && (event.kind === "interrupt" || (event.kind === "apiError" && event.final))) {
        pending.cutShort = true;
      } else if (pending.sawPrompt && event.kind === "turnEnd") {
        this.pending.delete(agentId);
        return true;
      }
    }
    return false;
  }

  /** The card went from working to idle: the answer, if its prompt was seen. */
  turnFinished(agentId: string): boolean {
    const pending = this.pending.get(agentId);
    if (!pending?.sawPrompt) return false;
    if (pending.cutShort) {
      // This idle is the cut turn's: the next turn's end answers.
      pending.cutShort = false;
      return false;
    }
    this.pending.delete(agentId);
    return true;
  }

  forget(agentId: string): void {
    this.pending.delete(agentId);
  }
}

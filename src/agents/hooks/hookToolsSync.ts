/**
 * Keeps the hook feed's live calls in step with each agent (the card store shows them as hooks tell
 * them): what the transcript has closed goes from the feed — a turn's end (or the next
 * prompt, an interrupt, a final API error, a compaction) takes the calls announced before it, a
 * session change the other sessions' calls, an exited claude everything it left.
 */
import type { HookToolFeed } from "../../core/hooks";
import type { TranscriptEvent } from "../../core/transcript";
import { DisposableStore, type Disposable, type Event } from "../../core/util";
import type { CardView } from "../../shared/protocol";
import type { TranscriptEventsRead } from "../agent/agentRegistry";

export interface HookToolsSyncDeps {
  feed: Pick<HookToolFeed, "turnOver" | "keepOnly" | "processGone" | "forgetAgent">;
  onDidReadTranscript: Event<TranscriptEventsRead>;
  onDidChangeCard: Event<Pick<CardView, "id" | "status">>;
  onDidRemoveCard: Event<string>;
  sessionOf(agentId: string): string | undefined;
}

/** Events after which the calls announced before them are over. */
function endsTurn(event: TranscriptEvent): boolean {
  return (
    event.kind === "turnEnd" ||
    event.kind === "interrupt" ||
    event.kind === "prompt" ||
    event.kind === "compaction" ||
    (event.kind === "apiError" && event.final)
  );
}

export function followHookTools(deps: HookToolsSyncDeps): Disposable {
  const store = new DisposableStore();
  store.add(
    deps.onDidReadTranscript(({ agentId, events }) => {
      const sessionId = deps.sessionOf(agentId);
      if (sessionId === undefined) return;
      for (const event of events) if (endsTurn(event)) deps.feed.turnOver(agentId, sessionId, event.at);
    }),
  );
  store.add(deps.onDidRemoveCard((agentId) => deps.feed.forgetAgent(agentId)));
  store.add(
    deps.onDidChangeCard((card) => {
      if (card.status === "exited") deps.feed.processGone(card.id);
      const sessionId = deps.sessionOf(card.id);
      if (sessionId !== undefined) deps.feed.keepOnly(card.id, sessionId);
    }),
  );
  return store;
}

/**
 * Keeps the hook feed's live calls in step with each agent (the card store shows them as hooks tell
 * them): what the transcript has closed goes from the feed — a turn's end (or the next
 * prompt, an interrupt, a final API error, a compaction) takes the calls announced before it, a
 * session change the other sessions' calls, an exited claude everything it left.
 */
import type { HookToolFeed } from "../../core/hooks";
import type { TranscriptEvent } from "../../core/transcript";
import { DisposableStore, type Disposable, type Event } from "../../core/util";
import type { ToolWait } from "../../core/agent";
import type { PromptView } from "../../shared/protocol";
import type { CardLiveSource } from "../agent/agent";
import type { AgentChange, TranscriptEventsRead } from "../agent/agentRegistry";

export interface HookToolsSyncDeps {
  feed: Pick<HookToolFeed, "turnOver" | "keepOnly" | "processGone" | "forgetAgent">;
  onDidReadTranscript: Event<TranscriptEventsRead>;
  onDidChange: Event<AgentChange>;
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
  store.add(
    deps.onDidChange((change) => {
      if (change.type === "removed") deps.feed.forgetAgent(change.id);
      else if (change.type === "updated") {
        if (change.agent.status === "exited") deps.feed.processGone(change.agent.id);
        const sessionId = deps.sessionOf(change.agent.id);
        if (sessionId !== undefined) deps.feed.keepOnly(change.agent.id, sessionId);
      }
    }),
  );
  return store;
}

/** What each card shows beyond its transcript: the feed's calls (unless switched off), waits, compaction, prompts. */
export function cardLiveSource(
  feed: Pick<HookToolFeed, "tools" | "isCompacting">,
  board: { waits: { of(agentId: string): ReadonlyMap<string, ToolWait> }; view(agentId: string): { prompts: readonly { kind: PromptView["kind"] }[] } },
  hooksShowTools: () => boolean,
): CardLiveSource {
  return (agentId, sessionId) => ({
    hookTools: hooksShowTools() ? feed.tools(agentId) : [],
    waits: board.waits.of(agentId),
    compacting: feed.isCompacting(agentId, sessionId),
    promptKinds: board.view(agentId).prompts.map((p) => p.kind),
  });
}

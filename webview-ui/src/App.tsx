/** The panel's agents page: the overview (a line per agent), every prompt under it, then one agent's details in the height left. */
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { AgentCard } from "./components/AgentCard";
import { CardErrorBoundary } from "./components/CardErrorBoundary";
import { EmptyState } from "./components/EmptyState";
import { NoticeBanner } from "./components/NoticeBanner";
import { Overview } from "./components/Overview";
import { QueueLine } from "./components/QueueLine";
import { TopBar } from "./components/TopBar";
import { firstPaintState } from "./firstPaint";
import { broughtToFront, detailAgentId } from "./detailChoice";
import type { CardView } from "../../src/shared/protocol";
import { type FrameScheduler, frameBatcher } from "./frameBatch";
import { reduceAll, toSaved } from "./store";
import { useClosedPlaceTaken } from "./useClosedPlaceTaken";
import { useDetailFloor } from "./useDetailFloor";
import { loadState, saveState } from "./vscodeApi";
import { useExtensionMessages } from "./useExtensionMessages";
import { onPush, request } from "./clients/panelClient";
import { usageTotal, usageTotalTitle } from "./usageText";

/** `frame`: how to wait for the next frame (the browser's; a test's to drive the frames itself). */
export function App({ frame }: { frame?: FrameScheduler } = {}) {
  // The snapshot embedded in the page (or the last state VS Code kept) paints at once; a fresh
  // snapshot then replaces it.
  const [state, dispatch] = useReducer(reduceAll, undefined, () => firstPaintState(loadState()));
  // Every message, the snapshot it asks for included (so none applies out of order), waits for the
  // next frame: a burst is one render. Rendered in that frame's callback (flushSync), so the frame
  // paints it: left to React's scheduler, an update made there renders in a task after the frame,
  // one frame late (the ten busy agents e2e: most messages painted a frame later than the build before).
  const [deliver] = useState(() => frameBatcher((messages: Parameters<typeof dispatch>[0]) => flushSync(() => dispatch(messages)), frame));

  useExtensionMessages(onPush, deliver, () => request("webviewReady", {}));

  useEffect(() => saveState(toSaved(state)), [state]);

  // When the page first held N cards (before that paint): how an end-to-end test tells that the
  // cards were in the first paint without depending on when it happened to look.
  const cardCount = state.cards.length;
  useLayoutEffect(() => {
    const name = `arcadia:cards:${cardCount}`;
    if (cardCount > 0 && performance.getEntriesByName(name).length === 0) performance.mark(name);
  }, [cardCount]);

  // Whose details show below the overview: the agent the user attended to last (a line's chevron, an
  // answered prompt, its terminal brought to the front), else they follow the terminal in front.
  const [asked, setAsked] = useState<string | null>(null);
  const shown = detailAgentId(state.cards, asked);
  const detail = state.cards.find((a) => a.id === shown);
  const showDetails = useCallback((id: string) => setAsked(id), []);
  // When the details just took the place of an agent that was closed: the next ✕ is then right
  // under the pointer that closed it, and ignores clicks for a moment.
  const closeIgnoredUntil = useClosedPlaceTaken(shown, state.cards);
  const detailRef = useDetailFloor(detail?.id);
  // An agent's terminal coming to the front takes the details along; a terminal that is no agent's
  // (an allowed command's commands terminal) leaves them on the agent the user was with.
  // A terminal the window revives after a reload is no such move: see `broughtToFront`.
  const cardsBefore = useRef<readonly CardView[]>([]);
  useEffect(() => {
    const inFront = broughtToFront(cardsBefore.current, state.cards);
    cardsBefore.current = state.cards;
    if (inFront !== undefined) setAsked(inFront);
  }, [state.cards]);

  return (
    <div className="panel">
      <TopBar total={usageTotal(state.cards, state.closed)} totalTitle={usageTotalTitle(state.closed)} />
      {state.notice && <NoticeBanner notice={state.notice} />}
      {state.queue && <QueueLine line={state.queue} />}
      {state.cards.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <Overview cards={state.cards} shown={shown} onShowDetails={showDetails} reveal={state.reveal} />
          {detail && (
            <ul ref={detailRef} className="agent-detail" aria-label={`${detail.name}: details`} data-testid="agent-detail">
              <CardErrorBoundary key={detail.id} agentId={detail.id} resetKeys={[detail]}>
                <AgentCard agent={detail} closeIgnoredUntil={closeIgnoredUntil} />
              </CardErrorBoundary>
            </ul>
          )}
        </>
      )}
    </div>
  );
}

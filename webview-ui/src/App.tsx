/** The panel's agents page: the overview (a line per agent), every prompt under it, then one agent's details in the height left. */
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { AgentCard } from "./components/AgentCard";
import { AgentLine, AgentPrompts } from "./components/AgentLine";
import { CardErrorBoundary } from "./components/CardErrorBoundary";
import { EmptyState } from "./components/EmptyState";
import { NoticeBanner } from "./components/NoticeBanner";
import { TopBar } from "./components/TopBar";
import { firstPaintState } from "./firstPaint";
import { detailAgentId } from "./detailChoice";
import { localDay, type PanelState, reduce, toSaved } from "./store";
import type { ExtensionMessage } from "../../src/shared/protocol";
import { useCardsVisible } from "./useCardsVisible";
import { useClosedPlaceTaken } from "./useClosedPlaceTaken";
import { loadState, saveState } from "./vscodeApi";
import { useExtensionMessages } from "./useExtensionMessages";
import { onPush, request } from "./clients/panelClient";
import { usageTotal, usageTotalTitle } from "./usageText";

export function App() {
  // The snapshot embedded in the page (or the last state VS Code kept) paints at once; a fresh
  // snapshot then replaces it.
  const [state, dispatch] = useReducer(
    (s: PanelState, m: ExtensionMessage) => reduce(s, m),
    undefined,
    () => firstPaintState(loadState()),
  );

  useExtensionMessages(onPush, dispatch, () => request("webviewReady", {}));

  useEffect(() => saveState(toSaved(state)), [state]);

  // When the page first held N cards (before that paint): how an end-to-end test tells that the
  // cards were in the first paint without depending on when it happened to look.
  const cardCount = state.cards.length;
  useLayoutEffect(() => {
    const name = `arcadia:cards:${cardCount}`;
    if (cardCount > 0 && performance.getEntriesByName(name).length === 0) performance.mark(name);
  }, [cardCount]);

  // Agents closed on an earlier day no longer count toward the header's total.
  const today = localDay(Date.now());

  const overview = useRef<HTMLDivElement>(null);
  // Every prompt of every agent, in the agents' order, under the overview: never in a scrolled-away card.
  const asking = state.cards.filter((card) => card.prompts.length > 0);
  useCardsVisible(overview, state.cards.map((a) => a.id).join(","));

  // Whose details show below the overview: the agent the user attended to last (a line's chevron, an
  // answered prompt, its terminal brought to the front), else they follow the terminal in front.
  const [asked, setAsked] = useState<string | null>(null);
  const shown = detailAgentId(state.cards, asked);
  const detail = state.cards.find((a) => a.id === shown);
  const showDetails = useCallback((id: string) => setAsked(id), []);
  // When the details just took the place of an agent that was closed: the next ✕ is then right
  // under the pointer that closed it, and ignores clicks for a moment.
  const closeIgnoredUntil = useClosedPlaceTaken(shown, state.cards);
  // An agent's terminal coming to the front takes the details along; a terminal that is no agent's
  // (an allowed command's commands terminal) leaves them on the agent the user was with.
  const focusedId = state.cards.find((a) => a.focused)?.id;
  useEffect(() => {
    if (focusedId !== undefined) setAsked(focusedId);
  }, [focusedId]);

  return (
    <div className="panel">
      <TopBar total={usageTotal(state.cards, state.closed, today)} totalTitle={usageTotalTitle(state.closed, today)} />
      {state.notice && <NoticeBanner notice={state.notice} />}
      {state.cards.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <div className="overview" ref={overview}>
            <ul className="agent-overview" aria-label="Agents" data-testid="agent-overview">
              {state.cards.map((agent) => (
                // One agent's bad data breaks its own line only, never the overview.
                <CardErrorBoundary key={agent.id} agentId={agent.id} resetKeys={[agent]}>
                  <AgentLine
                    agent={agent}
                    shown={agent.id === shown}
                    onShowDetails={showDetails}
                    revealSeq={state.reveal?.id === agent.id ? state.reveal.seq : 0}
                  />
                </CardErrorBoundary>
              ))}
            </ul>
            {asking.length > 0 && (
              <ul className="attention" aria-label="Waiting for your answer" data-testid="attention">
                {asking.map((agent) => (
                  <CardErrorBoundary key={agent.id} agentId={agent.id} resetKeys={[agent]}>
                    <AgentPrompts agent={agent} onAnswered={showDetails} />
                  </CardErrorBoundary>
                ))}
              </ul>
            )}
          </div>
          {detail && (
            <ul className="agent-detail" aria-label={`${detail.name}: details`} data-testid="agent-detail">
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

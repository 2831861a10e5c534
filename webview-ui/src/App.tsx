import { useEffect, useLayoutEffect, useReducer, useRef } from "react";
import { AgentCard } from "./components/AgentCard";
import { CardErrorBoundary } from "./components/CardErrorBoundary";
import { EmptyState } from "./components/EmptyState";
import { NoticeBanner } from "./components/NoticeBanner";
import { TopBar } from "./components/TopBar";
import { firstPaintState } from "./firstPaint";
import { reduce, toSaved } from "./store";
import { useCardsVisible } from "./useCardsVisible";
import { loadState, saveState } from "./vscodeApi";
import { useExtensionMessages } from "./useExtensionMessages";
import { usageTotal } from "./usageText";

export function App() {
  // The snapshot embedded in the page (or the last state VS Code kept) paints at once; a fresh
  // snapshot then replaces it.
  const [state, dispatch] = useReducer(reduce, undefined, () => firstPaintState(loadState()));

  useExtensionMessages(dispatch, { type: "webviewReady" });

  useEffect(() => saveState(toSaved(state)), [state]);

  // When the page first held N cards (before that paint): how an end-to-end test tells that the
  // cards were in the first paint without depending on when it happened to look.
  const cardCount = state.agents.length;
  useLayoutEffect(() => {
    const name = `arcadia:cards:${cardCount}`;
    if (cardCount > 0 && performance.getEntriesByName(name).length === 0) performance.mark(name);
  }, [cardCount]);

  const list = useRef<HTMLUListElement>(null);
  useCardsVisible(list, state.agents.map((a) => a.id).join(","));

  return (
    <div className="panel">
      <TopBar total={usageTotal(state.live.values())} />
      {state.notice && <NoticeBanner notice={state.notice} />}
      {state.agents.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="agent-list" aria-label="Agents" ref={list}>
          {state.agents.map((agent) => (
            <CardErrorBoundary key={agent.id} agentId={agent.id} resetKeys={[agent, state.live.get(agent.id)]}>
              <AgentCard agent={agent} live={state.live.get(agent.id)} revealSeq={state.reveal?.id === agent.id ? state.reveal.seq : 0} />
            </CardErrorBoundary>
          ))}
        </ul>
      )}
    </div>
  );
}

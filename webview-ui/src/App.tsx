import { useEffect, useReducer } from "react";
import { AgentCard } from "./components/AgentCard";
import { CardErrorBoundary } from "./components/CardErrorBoundary";
import { EmptyState } from "./components/EmptyState";
import { NoticeBanner } from "./components/NoticeBanner";
import { TopBar } from "./components/TopBar";
import { fromSaved, isExtensionMessage, reduce, toSaved } from "./store";
import { loadState, post, saveState } from "./vscodeApi";

export function App() {
  // The last state VS Code kept for this view paints at once; the snapshot then replaces it.
  const [state, dispatch] = useReducer(reduce, undefined, () => fromSaved(loadState()));

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isExtensionMessage(event.data)) dispatch(event.data);
    };
    window.addEventListener("message", onMessage);
    // Listening first, then asking: the snapshot cannot arrive before anyone hears it.
    post({ type: "webviewReady" });
    return () => window.removeEventListener("message", onMessage);
  }, []);

  useEffect(() => saveState(toSaved(state)), [state]);

  return (
    <div className="panel">
      <TopBar />
      {state.notice && <NoticeBanner notice={state.notice} />}
      {state.agents.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="agent-list" aria-label="Agents">
          {state.agents.map((agent) => (
            <CardErrorBoundary key={agent.id} agentId={agent.id} resetKeys={[agent, state.live.get(agent.id)]}>
              <AgentCard agent={agent} live={state.live.get(agent.id)} />
            </CardErrorBoundary>
          ))}
        </ul>
      )}
    </div>
  );
}

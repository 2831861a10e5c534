import { VSCodeButton, VSCodeTextField } from "@vscode/webview-ui-toolkit/react";
import { useEffect, useMemo, useReducer, useState } from "react";
import type { SessionRowView } from "../../src/shared/protocol";
import { Codicon } from "./components/Codicon";
import { filterSessions, initialSessions, reduceSessions } from "./sessionsStore";
import { compactNumber, costText, duration } from "./usageText";
import { post } from "./vscodeApi";
import { useExtensionMessages } from "./useExtensionMessages";

const when = (ms: number | null) => (ms === null ? "" : new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));

/** The Sessions view: every session of the workspace, newest first, filtered by what was asked. */
export function SessionsApp() {
  const [state, dispatch] = useReducer(reduceSessions, initialSessions);
  const [filter, setFilter] = useState("");
  useExtensionMessages(dispatch, { type: "sessionsReady" });
  const shown = useMemo(() => filterSessions(state.sessions, filter), [state.sessions, filter]);
  useEffect(() => {
    if (state.loaded && performance.getEntriesByName("arcadia:sessions:listed").length === 0) performance.mark("arcadia:sessions:listed");
  }, [state.loaded]);

  return (
    <div className="sessions">
      <header className="sessions-head">
        <VSCodeTextField
          data-testid="sessions-filter"
          placeholder="Filter by title or prompt"
          value={filter}
          onInput={(e: { target: EventTarget | null }) => setFilter((e.target as HTMLInputElement).value)}
        >
          <Codicon name="search" />
        </VSCodeTextField>
        <span className="sessions-count" data-testid="sessions-count">
          {!state.loaded ? "Reading sessions…" : `${shown.length === state.sessions.length ? "" : `${shown.length} of `}${state.sessions.length} ${state.sessions.length === 1 ? "session" : "sessions"}${state.indexing > 0 ? ` · reading ${state.indexing}…` : ""}`}
        </span>
      </header>
      {state.loaded && state.sessions.length === 0 && <p className="sessions-empty">No Claude Code sessions in this workspace yet. Start one with Open Claude Code.</p>}
      <ul className="session-list" aria-label="Sessions">
        {shown.map((session) => (
          <SessionRow key={session.sessionId} session={session} />
        ))}
      </ul>
    </div>
  );
}

function figures(s: SessionRowView): string[] {
  const parts: string[] = [];
  if (s.turns !== null) parts.push(`${s.turns} ${s.turns === 1 ? "turn" : "turns"}`);
  if (s.activeMs) parts.push(duration(s.activeMs));
  if (s.filesEdited) parts.push(`${s.filesEdited} ${s.filesEdited === 1 ? "file" : "files"} edited`);
  if (s.tokens) parts.push(`${compactNumber(s.tokens)} tokens`);
  if (s.costUsd) parts.push(costText(s.costUsd));
  return parts;
}

function SessionRow({ session: s }: { session: SessionRowView }) {
  const act = (action: "open" | "resume" | "raw") => post({ type: "sessionAction", sessionId: s.sessionId, action });
  return (
    <li className="session-row" data-testid="session-row" data-session-id={s.sessionId}>
      <button type="button" className="session-title" data-testid="session-open" title={`Read this session${s.firstPrompt ? `\nFirst prompt: ${s.firstPrompt}` : ""}`} onClick={() => act("open")}>
        {s.title}
      </button>
      <div className="session-meta">
        <span title={`Started ${when(s.startedAt)}, last active ${when(s.lastActiveAt)}`}>{when(s.lastActiveAt)}</span>
        {s.startedAt !== null && s.lastActiveAt !== null && new Date(s.startedAt).toDateString() !== new Date(s.lastActiveAt).toDateString() && (
          <span>{`started ${new Date(s.startedAt).toLocaleDateString(undefined, { dateStyle: "medium" })}`}</span>
        )}
        {figures(s).map((f) => (
          <span key={f}>{f}</span>
        ))}
        {s.worktree && (
          <span className="session-worktree" title="Ran in this git worktree">
            <Codicon name="git-branch" /> {s.worktree}
          </span>
        )}
        {s.followedBy && <span className="session-followed" data-testid="session-followed">{`Open in ${s.followedBy}`}</span>}
        {s.limit && <span className="session-limit">{s.limit}</span>}
      </div>
      <div className="session-actions">
        <VSCodeButton appearance="secondary" data-testid="session-resume" title={s.followedBy ? `Show ${s.followedBy}, which follows this session` : "Continue this conversation: claude --resume in a new terminal, with a card"} onClick={() => act("resume")}>
          <Codicon name={s.followedBy ? "terminal" : "debug-continue"} className="button-icon" />
          {s.followedBy ? "Show" : "Resume"}
        </VSCodeButton>
        <VSCodeButton appearance="icon" data-testid="session-raw" aria-label="Open the raw JSONL" title="Open the raw JSONL transcript" onClick={() => act("raw")}>
          <Codicon name="json" />
        </VSCodeButton>
      </div>
    </li>
  );
}

/** The Sessions page: every session of the workspace in a sortable, filterable table, each with Resume (or Show) and its raw transcript. */
import { VSCodeButton, VSCodeTextField } from "@vscode/webview-ui-toolkit/react";
import { useEffect, useMemo, useReducer, useState } from "react";
import type { SessionRowView } from "../../src/shared/protocol";
import { Codicon } from "./components/Codicon";
import { groupByRace, nextSort, savedSort, type SessionSort, type SessionSortKey, sortSessions } from "./sessionSort";
import { filterSessions, initialSessions, reduceSessions } from "./sessionsStore";
import { compactNumber, costText, duration } from "./usageText";
import { onPush, post } from "./clients/sessionsClient";
import { useExtensionMessages } from "./useExtensionMessages";
import { loadState, saveState } from "./vscodeApi";

const when = (ms: number | null) => (ms === null ? "" : new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
const day = (ms: number | null) => (ms === null ? "" : new Date(ms).toLocaleDateString(undefined, { dateStyle: "medium" }));

const COLUMNS: { key: SessionSortKey; label: string; numeric?: boolean; title?: string }[] = [
  { key: "title", label: "Session" },
  { key: "followedBy", label: "Agent", title: "The card that follows the session now" },
  { key: "lastActiveAt", label: "Last active" },
  { key: "startedAt", label: "Started" },
  { key: "turns", label: "Turns", numeric: true },
  { key: "activeMs", label: "Working", numeric: true, title: "Time spent in turns" },
  { key: "filesEdited", label: "Files", numeric: true, title: "Files edited" },
  { key: "tokens", label: "Tokens", numeric: true },
  { key: "costUsd", label: "Cost", numeric: true, title: "Estimated at list API prices" },
];

/**
 * The Sessions list, in an editor tab (the width titles, dates and figures need): every session of
 * the workspace and its worktrees, one row each, sortable by any column (newest first to begin
 * with), filtered by what was asked in them.
 */
export function SessionsApp() {
  const [state, dispatch] = useReducer(reduceSessions, initialSessions);
  const [filter, setFilter] = useState("");
  // The tab's page is made again each time it is shown: the sort the user chose comes back with it.
  const [sort, setSort] = useState<SessionSort>(() => savedSort(loadState()));
  useEffect(() => saveState({ sort }), [sort]);
  useExtensionMessages(onPush, dispatch, () => post({ type: "sessionsReady" }));
  const shown = useMemo(() => sortSessions(filterSessions(state.sessions, filter), sort), [state.sessions, filter, sort]);
  const lines = useMemo(() => groupByRace(shown), [shown]);
  useEffect(() => {
    if (state.loaded && performance.getEntriesByName("arcadia:sessions:listed").length === 0) performance.mark("arcadia:sessions:listed");
  }, [state.loaded]);
  const total = state.sessions.length;
  const count = `${shown.length === total ? "" : `${shown.length} of `}${total} ${total === 1 ? "session" : "sessions"}`;

  return (
    <div className="sessions">
      <header className="sessions-head">
        <VSCodeTextField
          className="sessions-filter"
          data-testid="sessions-filter"
          placeholder="Filter by title or prompt"
          value={filter}
          onInput={(e: { target: EventTarget | null }) => setFilter((e.target as HTMLInputElement).value)}
        >
          <Codicon name="search" />
        </VSCodeTextField>
        <span className="sessions-count" data-testid="sessions-count">
          {!state.loaded ? "Reading sessions…" : `${count}${state.indexing > 0 ? ` · reading ${state.indexing}…` : ""}`}
        </span>
      </header>
      {state.loaded && total === 0 && <p className="sessions-empty">No Claude Code sessions in this workspace yet. Start one with Open Claude Code.</p>}
      {total > 0 && (
        <table className="session-table" aria-label="Sessions">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  className={c.numeric ? "numeric" : undefined}
                  aria-sort={sort.key === c.key ? (sort.descending ? "descending" : "ascending") : undefined}
                  title={c.title}
                >
                  <button type="button" className="sort-button" data-testid={`sort-${c.key}`} onClick={() => setSort((s) => nextSort(s, c.key))}>
                    {c.label}
                    {sort.key === c.key && <Codicon name={sort.descending ? "arrow-down" : "arrow-up"} className="sort-icon" />}
                  </button>
                </th>
              ))}
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {lines.map((line) =>
              line.kind === "race" ? (
                <tr key={`race:${line.race}`} className="session-race" data-testid="session-race">
                  <td colSpan={COLUMNS.length + 1}>
                    <Codicon name="run-all" /> Race: {line.race}{" "}
                    <span className="session-race-count">
                      · {line.sessions} {line.sessions === 1 ? "session" : "sessions"}
                    </span>
                  </td>
                </tr>
              ) : (
                <SessionRow key={line.session.sessionId} session={line.session} inRace={line.inRace} />
              ),
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}

const figure = (n: number | null, format: (n: number) => string = String) => (n === null ? "…" : n === 0 ? "—" : format(n));

function SessionRow({ session: s, inRace }: { session: SessionRowView; inRace: boolean }) {
  const act = (action: "open" | "resume" | "raw") => post({ type: "sessionAction", sessionId: s.sessionId, action });
  const unread = s.turns === null;
  return (
    <tr className={`session-row${inRace ? " in-race" : ""}`} data-testid="session-row" data-session-id={s.sessionId} data-race={s.race ?? undefined}>
      <td className="session-title-cell">
        {/* The whole title: it wraps rather than being cut. */}
        <button
          type="button"
          className="session-title"
          data-testid="session-open"
          title={`Read this session${s.firstPrompt ? `\nFirst prompt: ${s.firstPrompt}` : ""}`}
          onClick={() => act("open")}
        >
          {s.title}
        </button>
        {s.worktree && (
          <span className="session-worktree" title="Ran in this git worktree">
            <Codicon name="git-branch" /> {s.worktree}
          </span>
        )}
        {s.limit && <span className="session-limit">{s.limit}</span>}
      </td>
      <td>{s.followedBy && <span className="session-followed" data-testid="session-followed">{`Open in ${s.followedBy}`}</span>}</td>
      {/* data-label: a narrow tab shows each row as a block, every figure named by its column (styles.css). */}
      <td className="date" data-label="Last active" title={`Last active ${when(s.lastActiveAt)}`}>
        {when(s.lastActiveAt)}
      </td>
      <td className="date" data-label="Started" title={`Started ${when(s.startedAt)}`}>
        {day(s.startedAt)}
      </td>
      <td className="numeric" data-label="Turns">
        {figure(s.turns)}
      </td>
      <td className="numeric" data-label="Working">
        {unread ? "…" : s.activeMs ? duration(s.activeMs) : "—"}
      </td>
      <td className="numeric" data-label="Files">
        {unread ? "…" : figure(s.filesEdited)}
      </td>
      <td className="numeric" data-label="Tokens">
        {unread ? "…" : figure(s.tokens, compactNumber)}
      </td>
      <td className="numeric" data-label="Cost">
        {unread ? "…" : s.costUsd ? costText(s.costUsd) : "—"}
      </td>
      <td className="session-actions">
        <div className="session-actions-inner">
          {s.cannotResume ? (
            // Resume would fail: say why instead of offering it.
            <span className="session-cannot-resume" data-testid="session-cannot-resume" title={`Cannot resume: ${s.cannotResume}`} tabIndex={0}>
              <Codicon name="warning" /> {s.worktree ? "Worktree gone" : "Folder gone"}
            </span>
          ) : (
            <VSCodeButton
              appearance="secondary"
              data-testid="session-resume"
              title={
                s.followedBy ? `Show ${s.followedBy}, which follows this session` : "Continue this conversation: claude --resume in a new terminal, with a card"
              }
              onClick={() => act("resume")}
            >
              <Codicon name={s.followedBy ? "terminal" : "debug-continue"} className="button-icon" />
              {s.followedBy ? "Show" : "Resume"}
            </VSCodeButton>
          )}
          <VSCodeButton
            appearance="icon"
            data-testid="session-raw"
            aria-label="Open the raw JSONL"
            title="Open the raw JSONL transcript"
            onClick={() => act("raw")}
          >
            <Codicon name="json" />
          </VSCodeButton>
        </div>
      </td>
    </tr>
  );
}

/** The session reader's page: one session read as a conversation, filtered by words, shown a page of items at a time. */
import { VSCodeButton, VSCodeTextField } from "@vscode/webview-ui-toolkit/react";
import { memo, useMemo, useReducer, useState } from "react";
import type { SessionItemView } from "../../src/shared/protocol";
import { Codicon } from "./components/Codicon";
import { renderMarkdown } from "./markdown";
import { filterByWords, initialReader, reduceReader } from "./sessionsStore";
import { duration } from "./usageText";
import { onPush, post } from "./clients/readerClient";
import { useExtensionMessages } from "./useExtensionMessages";

/** Items rendered at first (and added per "Show more"): a long session's whole DOM would be slow to lay out. */
export const READER_PAGE = 1500;

/** The text an item is found by. */
function textOf(item: SessionItemView): string {
  if (item.kind === "prompt" || item.kind === "reply" || item.kind === "error") return item.text;
  if (item.kind === "tool") return item.label;
  return "";
}

/** One session, read as a conversation: prompts, replies (Markdown), tool rows (sub-agents nested), errors. */
export function SessionReaderApp({ sessionId }: { sessionId: string }) {
  const [state, dispatch] = useReducer(reduceReader, initialReader);
  const [search, setSearch] = useState("");
  const [limit, setLimit] = useState(READER_PAGE);
  useExtensionMessages(onPush, dispatch, () => post({ type: "sessionsReady" }));
  const shown = useMemo(() => filterByWords(state.items, search, (item) => textOf(item).toLowerCase()), [state.items, search]);
  const act = (action: "resume" | "raw") => post({ type: "sessionAction", sessionId, action });

  return (
    <div className="reader">
      <header className="reader-head">
        <h1 className="reader-title" data-testid="reader-title">
          {state.title}
        </h1>
        <VSCodeTextField
          data-testid="reader-search"
          placeholder="Search this session"
          value={search}
          onInput={(e: { target: EventTarget | null }) => setSearch((e.target as HTMLInputElement).value)}
        >
          <Codicon name="search" />
        </VSCodeTextField>
        {state.cannotResume ? (
          // Resume would fail: say why instead of offering it, as the list's row does.
          <span className="session-cannot-resume" data-testid="reader-cannot-resume" title={`Cannot resume: ${state.cannotResume}`} tabIndex={0}>
            <Codicon name="warning" /> Cannot resume: {state.cannotResume}
          </span>
        ) : (
          <VSCodeButton
            data-testid="reader-resume"
            title="Continue this conversation: claude --resume in a new terminal, with a card"
            onClick={() => act("resume")}
          >
            <Codicon name="debug-continue" className="button-icon" />
            Resume
          </VSCodeButton>
        )}
        <VSCodeButton appearance="secondary" data-testid="reader-raw" title="Open the raw JSONL transcript" onClick={() => act("raw")}>
          <Codicon name="json" className="button-icon" />
          Raw JSONL
        </VSCodeButton>
      </header>
      <ol className="reader-items" data-testid="reader-items" aria-busy={!state.done}>
        {shown.slice(0, limit).map((item, i) => (
          <Item key={i} item={item} />
        ))}
      </ol>
      {shown.length > limit && (
        <VSCodeButton appearance="secondary" data-testid="reader-more" onClick={() => setLimit(limit + READER_PAGE)}>
          {`Show ${Math.min(READER_PAGE, shown.length - limit)} more of ${shown.length - limit}`}
        </VSCodeButton>
      )}
      {!state.done && <p className="reader-loading">Reading…</p>}
    </div>
  );
}

const Item = memo(function Item({ item }: { item: SessionItemView }) {
  switch (item.kind) {
    case "prompt":
      return (
        <li className="reader-prompt" data-testid="reader-prompt">
          <span className="reader-label">{item.source === "user" ? `Turn ${item.turn} · You` : `Turn ${item.turn} · Background task`}</span>
          <div className="reader-text">{item.text}</div>
        </li>
      );
    case "reply":
      // Markdown rendered by markdown-it with raw HTML escaped (markdown.ts).
      return <li className="reader-reply markdown" data-testid="reader-reply" dangerouslySetInnerHTML={{ __html: renderMarkdown(item.text) }} />;
    case "tool":
      return (
        <li className={`reader-tool outcome-${item.outcome}${item.parent ? " nested" : ""}`} data-testid="reader-tool">
          <Codicon name={item.outcome === "done" ? "check" : item.outcome === "running" ? "loading" : "close"} /> {item.label}
          {item.outcome !== "done" && <span className="reader-outcome"> · {item.outcome}</span>}
        </li>
      );
    case "error":
      return (
        <li className="reader-error" data-testid="reader-error">
          <Codicon name="error" /> {item.text}
        </li>
      );
    case "interrupt":
      return <li className="reader-note">Interrupted</li>;
    case "compaction":
      return <li className="reader-note">Conversation compacted</li>;
    case "turnEnd":
      return <li className="reader-note reader-turn-end">{item.durationMs !== undefined ? `Turn took ${duration(item.durationMs)}` : "Turn ended"}</li>;
  }
});

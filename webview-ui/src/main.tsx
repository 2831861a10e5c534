import "@vscode/codicons/dist/codicon.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { CompareApp } from "./CompareApp";
import { SessionReaderApp } from "./SessionReaderApp";
import { SessionsApp } from "./SessionsApp";

/** A string the extension embeds in the page's JSON block (src/panel/webviewHtml.ts): the reader's session, the compare tab's race. */
function embedded(key: "sessionId" | "raceId"): string {
  try {
    const data: unknown = JSON.parse(document.getElementById("arcadia-initial-state")?.textContent ?? "{}");
    const value = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

function page(view: string | undefined) {
  if (view === "sessions") return <SessionsApp />;
  if (view === "session") return <SessionReaderApp sessionId={embedded("sessionId")} />;
  if (view === "compare") return <CompareApp raceId={embedded("raceId")} />;
  return <App />;
}

// One bundle, four pages: the agents panel, the Sessions view, a session's reader and a race's compare tab (body data-view).
const root = document.getElementById("root");
if (root) createRoot(root).render(<StrictMode>{page(document.body.dataset.view)}</StrictMode>);

import "@vscode/codicons/dist/codicon.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { SessionReaderApp } from "./SessionReaderApp";
import { SessionsApp } from "./SessionsApp";

/** The reader's session, from the JSON block the extension embeds (src/panel/webviewHtml.ts). */
function readerSessionId(): string {
  try {
    const data: unknown = JSON.parse(document.getElementById("arcadia-initial-state")?.textContent ?? "{}");
    return typeof data === "object" && data !== null && typeof (data as { sessionId?: unknown }).sessionId === "string" ? (data as { sessionId: string }).sessionId : "";
  } catch {
    return "";
  }
}

// One bundle, three pages: the agents panel, the Sessions view and a session's reader (body data-view).
const view = document.body.dataset.view;
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(<StrictMode>{view === "sessions" ? <SessionsApp /> : view === "session" ? <SessionReaderApp sessionId={readerSessionId()} /> : <App />}</StrictMode>);
}

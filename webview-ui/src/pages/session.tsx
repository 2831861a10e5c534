// One session's reader (an editor tab): its own bundle, with markdown-it.
import { SessionReaderApp } from "../SessionReaderApp";
import { mount } from "./mount";

/** The reader's session, from the JSON block the extension embeds (src/panel/webviewHtml.ts). */
function readerSessionId(): string {
  try {
    const data: unknown = JSON.parse(document.getElementById("arcadia-initial-state")?.textContent ?? "{}");
    return typeof data === "object" && data !== null && typeof (data as { sessionId?: unknown }).sessionId === "string" ? (data as { sessionId: string }).sessionId : "";
  } catch {
    return "";
  }
}

mount(<SessionReaderApp sessionId={readerSessionId()} />);

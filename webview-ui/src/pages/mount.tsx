/** Mounts a page's app into the page and reads what the extension embedded in it. */
import "@vscode/codicons/dist/codicon.css";
import "../styles.css";
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

/** Renders a page's app into the page's #root (src/vscode/webviewHtml.ts writes it). */
export function mount(app: ReactNode): void {
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<StrictMode>{app}</StrictMode>);
}

/** A string the extension embeds in the page's JSON block (src/vscode/webviewHtml.ts): the reader's session, the compare tab's race. */
export function embedded(key: "sessionId" | "raceId"): string {
  try {
    const data: unknown = JSON.parse(document.getElementById("arcadia-initial-state")?.textContent ?? "{}");
    const value = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

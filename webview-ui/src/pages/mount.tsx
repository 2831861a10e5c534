import "@vscode/codicons/dist/codicon.css";
import "../styles.css";
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

/** Renders a page's app into the page's #root (src/panel/webviewHtml.ts writes it). */
export function mount(app: ReactNode): void {
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<StrictMode>{app}</StrictMode>);
}

/** The panel's first paint: the snapshot embedded in the page, over the state VS Code kept for the view. */
import { fromSaved, isExtensionMessage, reduce, type PanelState } from "./store";

/** Written by the extension into the page (src/vscode/webviewHtml.ts INITIAL_STATE_ID). */
const INITIAL_STATE_ID = "arcadia-initial-state";

/**
 * What the panel paints first: the snapshot the extension embedded in the page (the cards as they
 * were when the page was made: after a window reload, the reconnecting ones), over what VS Code
 * kept for this view. The page still asks for a fresh snapshot at once (webviewReady).
 */
export function firstPaintState(saved: unknown): PanelState {
  const state = fromSaved(saved);
  const text = document.getElementById(INITIAL_STATE_ID)?.textContent;
  if (!text) return state;
  try {
    const embedded: unknown = JSON.parse(text);
    return isExtensionMessage(embedded) && embedded.type === "snapshot" ? reduce(state, embedded) : state;
  } catch {
    return state;
  }
}

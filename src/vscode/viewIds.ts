/** The id of Arcadia's webview view in the bottom panel (package.json contributes it). */
export const PANEL_VIEW_ID = "arcadia.panelView";

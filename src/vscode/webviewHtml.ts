/**
 * The panel's HTML: the Vite bundle from dist/webview, loaded under a strict Content-Security-
 * Policy (a fresh nonce per load, no inline script, no eval, no <base>, no form targets), asset
 * paths rewritten for the webview. The cards as they are now ride along as data (a JSON block the
 * page reads, never runs), so the first paint has them: no empty panel while the page asks.
 */
import { randomBytes } from "node:crypto";
import type * as vscode from "vscode";

/** The id of the JSON block holding the first snapshot (webview-ui/src/firstPaint.ts reads it). */
export const INITIAL_STATE_ID = "arcadia-initial-state";

/** JSON safe inside a <script> element: no "</script>" or "<!--" can end or change it. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

export function webviewHtml(
  webview: vscode.Webview,
  assetsRoot: vscode.Uri,
  joinPath: (base: vscode.Uri, ...parts: string[]) => vscode.Uri,
  initialState?: unknown,
  /** Which page the bundle shows: the agents panel, the Sessions view, one session's reader, or a race's compare tab. */
  view: "agents" | "sessions" | "session" | "compare" | "queue" = "agents",
): string {
  const nonce = randomBytes(16).toString("base64");
  // Each page its own bundle (webview-ui/vite.config.ts): the panel loads no Markdown or reader.
  const script = webview.asWebviewUri(joinPath(assetsRoot, "assets", `${view}.js`));
  const style = webview.asWebviewUri(joinPath(assetsRoot, "assets", `${view}.css`));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    // default-src does not cover these: no <base> may re-point the relative asset URLs, and no
    // form may post the panel's content anywhere.
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${csp}" />
    <!-- The toolkit's components read this to nonce the one style element they add. -->
    <meta property="csp-nonce" content="${nonce}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <link rel="stylesheet" href="${style}" nonce="${nonce}" />
    <title>Arcadia</title>
  </head>
  <body data-view="${view}">
    <div id="root"></div>${
      initialState === undefined ? "" : `\n    <script type="application/json" ` + `id="${INITIAL_STATE_ID}">${embeddedJson(initialState)}</script>`
    }
    <script type="module" nonce="${nonce}" src="${script}"></script>
  </body>
</html>`;
}

/**
 * The page the panel bench loads in Chromium: the built panel bundle (dist/webview/assets/agents.*)
 * with a fake `acquireVsCodeApi` that answers `webviewReady` with an empty snapshot, and what the
 * bench measures in the page: each message's time to the end of its frame, long tasks, DOM size,
 * and whether anything scrolls sideways. Served from loopback (module scripts need an origin).
 */
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const PANEL_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="assets/agents.css">
<style>body { margin: 0; background: #1e1e1e; color: #ccc; font: 13px sans-serif; }</style>
<script>
  window.__latencies = []; window.__longTasks = []; window.__mostLines = 0;
  window.__replayStart = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ duration: e.duration, at: e.startTime - window.__replayStart }); }).observe({ type: "longtask", buffered: true });
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      if (m && m.type === "webviewReady") setTimeout(() => window.postMessage({ type: "response", requestId: m.requestId, ok: true, result: { type: "snapshot", cards: [], notice: null } }, "*"), 0);
    },
    getState() { return undefined; },
    setState() {},
  });
  /** A message from the extension, and when its frame ends (a task after the frame it was drawn in). */
  window.__deliver = (message) => {
    const sent = performance.now();
    window.postMessage(message, "*");
    requestAnimationFrame(() => setTimeout(() => {
      window.__latencies.push(performance.now() - sent);
      window.__mostLines = Math.max(window.__mostLines, document.querySelectorAll('[data-testid="agent-line"]').length);
    }, 0));
  };
  /** Replays recorded messages at their recorded times (ms from the first), resolving after the last one's frame. */
  window.__replay = (recorded) => new Promise((resolve) => {
    // What the page's load cost (its script compiled and run) is not the messages'.
    window.__latencies.length = 0; window.__longTasks.length = 0;
    const start = performance.now();
    window.__replayStart = start;
    let i = 0;
    const next = () => {
      const now = performance.now() - start;
      while (i < recorded.length && recorded[i].at <= now) window.__deliver(recorded[i++].message);
      if (i < recorded.length) setTimeout(next, Math.max(0, recorded[i].at - (performance.now() - start)));
      else setTimeout(resolve, 500);
    };
    next();
  });
  /** Words on the overview's lines that are cut (wider than their box) or pushed out of their line: names, short statuses, race n/N. */
  window.__cut = () => {
    const cut = [];
    for (const line of document.querySelectorAll('[data-testid="agent-line"]')) {
      const box = line.getBoundingClientRect();
      for (const el of line.querySelectorAll('[data-testid="line-name"], .line-status:not(.line-status-long), .line-race-count')) {
        const r = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 || r.right > box.right + 1 || r.width === 0) cut.push(el.textContent);
      }
    }
    return cut;
  };
  /** Sideways scroll anywhere: the page, and every element that scrolls (its content wider than its box). */
  window.__sideways = () => {
    const found = [];
    const doc = document.scrollingElement;
    if (doc.scrollWidth > doc.clientWidth + 1) found.push({ what: "page", over: doc.scrollWidth - doc.clientWidth });
    for (const el of document.querySelectorAll("*")) {
      const style = getComputedStyle(el);
      if (!/(auto|scroll)/.test(style.overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1) found.push({ what: el.className || el.tagName, over: el.scrollWidth - el.clientWidth });
    }
    return found;
  };
</script></head>
<body><div id="root"></div><script type="module" src="assets/agents.js"></script></body></html>`;

/** Serves the page and the built webview's files on 127.0.0.1. */
export async function servePanel(webviewDir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    if (path === "/" || path === "/index.html") {
      response.writeHead(200, { "content-type": "text/html" }).end(PANEL_HTML);
      return;
    }
    try {
      const file = readFileSync(join(webviewDir, path.replace(/\.\.+/g, "")));
      const type = path.endsWith(".js") ? "text/javascript" : path.endsWith(".css") ? "text/css" : "application/octet-stream";
      response.writeHead(200, { "content-type": type }).end(file);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, server };
}

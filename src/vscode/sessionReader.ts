/**
 * A session opened for reading: an editor tab showing it as the Sessions view's reader (prompts,
 * replies in Markdown, tool rows, sub-agents nested), streamed in batches from
 * core/sessions/sessionDocument.ts as the file is read. Resume and the raw JSONL are one click away.
 */
import { vscode } from "./api";
import type { Log } from "../agents/ports";
import type { SessionEntry } from "../core/sessions/sessionIndex";
import { streamSessionDocument } from "../core/sessions/sessionDocument";
import { errorMessage } from "../core/util/errorMessage";
import { parseWebviewMessage, type ExtensionMessage } from "../shared/protocol";
import { webviewHtml } from "./webviewHtml";

const open = new Map<string, vscode.WebviewPanel>();

export function openSessionReader(
  context: vscode.ExtensionContext,
  entry: SessionEntry,
  act: (sessionId: string, action: "resume" | "raw") => Promise<void>,
  log: Log,
): void {
  const sessionId = entry.glance.sessionId;
  const known = open.get(sessionId);
  if (known) return known.reveal();
  const title = entry.digest?.title ?? entry.glance.title ?? entry.glance.firstPrompt ?? sessionId;
  const assetsRoot = vscode.Uri.joinPath(context.extensionUri, "dist", "webview");
  const panel = vscode.window.createWebviewPanel("arcadia.sessionReader", `Session: ${title.slice(0, 40)}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    enableFindWidget: true,
    localResourceRoots: [assetsRoot],
  });
  open.set(sessionId, panel);
  let closed = false;
  panel.onDidDispose(() => {
    closed = true;
    open.delete(sessionId);
  });
  panel.webview.html = webviewHtml(panel.webview, assetsRoot, vscode.Uri.joinPath, { sessionId, title }, "session");
  const post = (message: ExtensionMessage) => void (closed ? undefined : panel.webview.postMessage(message));
  panel.webview.onDidReceiveMessage(async (raw) => {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return log.warn(`ignored a message from a session reader: ${parsed.error}`);
    const message = parsed.message;
    if (message.type === "sessionAction" && message.action !== "open") await act(sessionId, message.action);
    if (message.type !== "sessionsReady") return;
    let first = true;
    try {
      await streamSessionDocument(
        entry.path,
        (batch) => {
          post({ type: "sessionItems", title, items: batch.items, updates: batch.updates, done: false, reset: first });
          first = false;
        },
        { cancelled: () => closed },
      );
      post({ type: "sessionItems", title, items: [], updates: [], done: true, reset: first });
    } catch (err) {
      log.warn(`reading session ${entry.path} failed: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`Arcadia could not read session ${sessionId}: ${errorMessage(err)}. Its raw JSONL is at ${entry.path}.`);
    }
  });
}

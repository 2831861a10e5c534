/**
 * A session opened for reading: an editor tab showing it as the Sessions view's reader (prompts,
 * replies in Markdown, tool rows, sub-agents nested), streamed in batches from
 * core/sessions/sessionDocument.ts as the file is read. Resume and the raw JSONL are one click away.
 */
import { vscode } from "../api";
import type { Log } from "../../agents/ports";
import type { SessionEntry } from "../../core/sessions";
import { streamSessionDocument } from "../../core/sessions";
import { errorMessage } from "../../core/util";
import { READER_PAGE } from "../../shared/protocols/reader";
import { WebviewHost } from "../webviewHost";

const open = new Map<string, vscode.WebviewPanel>();

export function openSessionReader(
  context: vscode.ExtensionContext,
  entry: SessionEntry,
  act: (sessionId: string, action: "resume" | "raw") => Promise<void>,
  log: Log,
  /** Why Resume cannot work, as its row in the list says (sessionRows.ts); null: it can. */
  cannotResume: string | null = null,
): void {
  const sessionId = entry.glance.sessionId;
  const known = open.get(sessionId);
  if (known) return known.reveal();
  const title = entry.digest?.title ?? entry.glance.title ?? entry.glance.firstPrompt ?? sessionId;
  const panel = vscode.window.createWebviewPanel("arcadia.sessionReader", `Session: ${title.slice(0, 40)}`, vscode.ViewColumn.Active, {
    enableFindWidget: true,
  });
  open.set(sessionId, panel);
  let closed = false;
  const host = new WebviewHost(panel, {
    page: READER_PAGE,
    handlers: {
      // The page's own session, whatever the message names.
      sessionAction: (m) => act(sessionId, m.action),
      sessionsReady: () => stream(),
    },
    log,
    extensionUri: context.extensionUri,
    joinPath: vscode.Uri.joinPath,
    initialState: { sessionId, title },
  });
  host.onDidDispose(() => {
    closed = true;
    open.delete(sessionId);
  });

  async function stream(): Promise<void> {
    let first = true;
    try {
      await streamSessionDocument(
        entry.path,
        (batch) => {
          host.post({ type: "sessionItems", title, items: batch.items, updates: batch.updates, done: false, reset: first, cannotResume });
          first = false;
        },
        { cancelled: () => closed },
      );
      host.post({ type: "sessionItems", title, items: [], updates: [], done: true, reset: first, cannotResume });
    } catch (err) {
      log.warn(`reading session ${entry.path} failed: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`Arcadia could not read session ${sessionId}: ${errorMessage(err)}. Its raw JSONL is at ${entry.path}.`);
    }
  }
}

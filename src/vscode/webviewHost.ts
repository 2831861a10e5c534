/**
 * The one host of a webview page (the panel, the Sessions list, a session reader, a compare tab):
 * it writes the page (options, CSP, HTML: webviewHtml.ts), checks each message with that page's
 * own schema (untrusted input; another page's message does not fit and is ignored with a log
 * line), hands it to the handler of its name, answers a request with its `requestId`, and posts
 * the page's typed pushes. It owns its subscriptions and goes with its page.
 * Only types of vscode here: the host is tested in plain Node with a fake webview.
 */
import type * as vscode from "vscode";
import type { Log } from "../agents/ports";
import { DisposableObject, Emitter, errorMessage, type Event } from "../core/util";
import type { PageDefinition, PageHandlers, PageProtocol, PageResponse } from "../shared/protocols/pageProtocol";
import { webviewHtml } from "./webviewHtml";

/** What a page is shown in: a webview view (the panel) or a webview panel (an editor tab). */
export interface PageOwner {
  readonly webview: vscode.Webview;
  readonly onDidDispose: vscode.Event<void>;
}

/** A page and what answers it: all a host needs beyond where the page's files are. */
export interface PageBinding<P extends PageProtocol> {
  page: PageDefinition<P>;
  handlers: PageHandlers<P["requests"]>;
  log: Log;
}

export interface WebviewHostOptions<P extends PageProtocol> extends PageBinding<P> {
  extensionUri: vscode.Uri;
  /** vscode.Uri.joinPath, passed in (see above). */
  joinPath: (base: vscode.Uri, ...parts: string[]) => vscode.Uri;
  /** Data the page reads at once (a JSON block, never run): the panel's first snapshot, a reader's session, a tab's race. */
  initialState?: unknown;
}

export class WebviewHost<P extends PageProtocol> extends DisposableObject {
  private disposed = false;
  private readonly gone = this._register(new Emitter<void>());
  /** The page went (its view or tab was closed), or the host was disposed. */
  readonly onDidDispose: Event<void> = this.gone.event;

  constructor(
    private readonly owner: PageOwner,
    private readonly options: WebviewHostOptions<P>,
  ) {
    super();
    const assetsRoot = options.joinPath(options.extensionUri, "dist", "webview");
    owner.webview.options = { enableScripts: true, localResourceRoots: [assetsRoot] };
    owner.webview.html = webviewHtml(owner.webview, assetsRoot, options.joinPath, options.initialState, options.page.view);
    // The listener hands back the handling's promise: VS Code ignores it, tests await it.
    this._register(owner.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this._register(owner.onDidDispose(() => this.dispose()));
  }

  /** Sends the page something it was not asked for; nothing once the page is gone. */
  post(push: P["push"]): void {
    if (!this.disposed) void this.owner.webview.postMessage(push);
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.gone.fire();
    super.dispose();
  }

  private async receive(raw: unknown): Promise<void> {
    const { page, handlers, log } = this.options;
    const parsed = page.parse(raw);
    if (!parsed.ok) {
      log.warn(`ignored a message from the ${page.name} that does not fit its protocol: ${parsed.error}`);
      if (parsed.requestId !== undefined) this.respond({ type: "response", requestId: parsed.requestId, ok: false, error: "not a message this page can send" });
      return;
    }
    const { message, requestId } = parsed;
    try {
      const answer: unknown = (handlers[message.type] as (m: typeof message) => unknown)(message);
      // An answer known now goes now: nothing pushed meanwhile can reach the page before it and be older than it.
      const result = answer instanceof Promise ? await answer : answer;
      if (requestId !== undefined) this.respond({ type: "response", requestId, ok: true, result });
    } catch (err) {
      log.error(`${page.name} action ${message.type} failed: ${errorMessage(err)}`);
      if (requestId !== undefined) this.respond({ type: "response", requestId, ok: false, error: errorMessage(err) });
    }
  }

  private respond(response: PageResponse): void {
    if (!this.disposed) void this.owner.webview.postMessage(response);
  }
}

/**
 * The shape of every page's protocol (Continue's protocol/core.ts): what a page asks, as a map
 * name → [payload, response], and what the extension pushes unasked, as a union. Each webview page
 * (panel.ts, sessions.ts, reader.ts, compare.ts beside this file) has its own; its host accepts
 * that page's messages only. Types only: the webview imports this file, and nothing here runs.
 *
 * On the wire a page's message is its name as `type` with the payload's fields beside it,
 * `{ type: "focusAgent", id }`. A page `post`s it and goes on, or `request`s it: the same message
 * with a `requestId`, which the host answers, once the handler is done, with a `response` carrying
 * that id (the handler's result, or why it failed). A response of `void` is that acknowledgement.
 */

/** No fields besides `type`. */
export type NoPayload = Record<never, never>;

/** What a page asks: name → [payload, response]. */
export type PageRequests = Record<string, [object, unknown]>;

export interface PageProtocol {
  requests: PageRequests;
  /** What the extension sends the page unasked (never typed "response": that name is the answers'). */
  push: { type: string };
}

/** A page's message as it crosses to the extension (without the `requestId` of a request). */
export type PageMessage<R extends PageRequests, K extends keyof R = keyof R> = K extends keyof R & string ? { type: K } & R[K][0] : never;

/** The answer to a request, matched to it by `requestId`. */
export type PageResponse =
  { type: "response"; requestId: number; ok: true; result?: unknown } | { type: "response"; requestId: number; ok: false; error: string };

/** The extension side of a page: each message to the handler that answers it. */
export type PageHandlers<R extends PageRequests> = { [K in keyof R & string]: (message: PageMessage<R, K>) => R[K][1] | Promise<R[K][1]> };

/** Which bundle a page is (dist/webview/assets/<view>.js; webviewHtml.ts writes `<body data-view>`). */
export type PageView = "agents" | "sessions" | "session" | "compare" | "queue";

export type ParsedPageMessage<M> = { ok: true; message: M; requestId?: number } | { ok: false; error: string; requestId?: number };

/** A page as its host needs it: its bundle, its name in log lines, and its inbound messages' validation (untrusted input). */
export interface PageDefinition<P extends PageProtocol> {
  readonly view: PageView;
  /** "panel": "ignored a message from the panel …", "panel action openClaude failed: …". */
  readonly name: string;
  parse(raw: unknown): ParsedPageMessage<PageMessage<P["requests"]>>;
}

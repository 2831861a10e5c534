/** The typed link between a page and the extension (post, request with its answer, pushes), shared by every page's client. */
import type { PageMessage, PageProtocol, PageResponse } from "../../../src/shared/protocols/pageProtocol";
import { postToExtension } from "../vscodeApi";

/**
 * A page's link to the extension, typed by that page's protocol (src/shared/protocols/): `post`
 * sends a message and goes on; `request` sends it with an id and resolves with the extension's
 * answer to that id (rejects with why it failed); `onPush` hears what the extension sends unasked,
 * well-formed messages only (anything else posted to the page is ignored).
 * Each page's client file exports the three apart, so a bundle keeps only what its page uses.
 */
export interface PageClient<P extends PageProtocol> {
  post(message: PageMessage<P["requests"]>): void;
  request<K extends keyof P["requests"] & string>(name: K, payload: P["requests"][K][0]): Promise<P["requests"][K][1]>;
  /** Returns how to stop hearing. */
  onPush(listener: (push: P["push"]) => void): () => void;
}

type Shape = Record<string, unknown>;

export { postToExtension as sendMessage };

/** Requests waiting for their answers, by id (a bundle is one page: one count, one map). */
const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
let lastId = 0;

function isResponse(data: unknown): data is PageResponse {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Shape;
  return m.type === "response" && typeof m.requestId === "number" && (m.ok === true || (m.ok === false && typeof m.error === "string"));
}

function onAnswer({ data }: MessageEvent): void {
  if (!isResponse(data)) return;
  const request = waiting.get(data.requestId);
  waiting.delete(data.requestId);
  if (data.ok) request?.resolve(data.result);
  else request?.reject(new Error(data.error));
}

/** Untyped; a page's client file types it by its protocol (PageClient["request"]). */
export function sendRequest(name: string, payload: object): Promise<unknown> {
  // Answers are listened for from the first request on.
  if (lastId === 0) window.addEventListener("message", onAnswer);
  const requestId = ++lastId;
  return new Promise((resolve, reject) => {
    waiting.set(requestId, { resolve, reject });
    postToExtension({ ...payload, type: name, requestId });
  });
}

/** A page's `onPush`, given its cheap shape check of what it is sent: listening starts with the first listener. */
export function pushListener<Push>(isPush: (data: unknown) => data is Push): (listener: (push: Push) => void) => () => void {
  const listeners = new Set<(push: Push) => void>();
  const onMessage = ({ data }: MessageEvent) => {
    if (isPush(data)) for (const listener of [...listeners]) listener(data);
  };
  return (listener) => {
    if (listeners.size === 0) window.addEventListener("message", onMessage);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) window.removeEventListener("message", onMessage);
    };
  };
}

/**
 * A page's push check from one shape check per message type: typed over the page's push union,
 * so a push added to the protocol and forgotten here fails to compile instead of being dropped.
 */
export function pushCheck<Push extends { type: string }>(checks: { [T in Push["type"]]: (m: Shape) => boolean }): (data: unknown) => data is Push {
  return (data): data is Push => {
    if (typeof data !== "object" || data === null) return false;
    const m = data as Shape;
    // Own keys only: a message typed "constructor" or "toString" is not a message.
    return typeof m.type === "string" && Object.hasOwn(checks, m.type) && checks[m.type as Push["type"]](m);
  };
}

/**
 * A request the client gave up on ends at once: its SSE response closes (the socket is free
 * again) and its handler is aborted, which ends the tracked call and withdraws what it waited on
 * (approval, diff, command), so no late Allow can run anything for nobody.
 *
 * Why this is needed: on `notifications/cancelled` the SDK aborts the handler and, as the spec
 * says, sends no response; but its Streamable HTTP transport closes a request's SSE stream only
 * when that response is sent. So every cancelled call left its response (and socket) open for
 * good. And a client that just drops the connection aborts nothing: the handler (and its
 * approval) lived on. Both now go through one path: a cancel, real or made up here.
 */
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";

type Transport = WebStandardStreamableHTTPServerTransport;

/** Call after `server.connect(transport)` (which sets `onmessage`): every cancel, from the client
 * or from `cancelRequests`, also ends that request's response. */
export function endCancelledRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    deliver?.(message, extra);
    const id = cancelledRequestId(message);
    if (id !== undefined) releaseResponse(transport, id);
  };
}

/** The connection of these requests' response closed before they were answered: cancel them as the
 * client would have. Harmless for ids already answered or unknown. */
export function cancelRequests(transport: Transport, ids: readonly RequestId[], reason: string): void {
  for (const requestId of ids) {
    transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });
  }
}

/** The ids of the JSON-RPC requests (not notifications) in a parsed body, single or batch. */
export function requestIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const m of messages) {
    if (typeof m !== "object" || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
}

function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

function releaseResponse(transport: Transport, id: RequestId): void {
  // Ends the request's SSE stream: our bridge then ends the HTTP response.
  transport.closeSSEStream(id);
  // The transport still maps the request to that stream until a response is sent, and none ever
  // will be. A response sent now finds its stream gone, writes nothing to the client, and the SDK
  // drops the mapping (its path for undeliverable responses), then throws, which says just that.
  transport.send({ jsonrpc: "2.0", id, error: { code: REQUEST_CANCELLED, message: "Request cancelled" } }).catch(() => undefined);
}

/** Not sent to anyone (see releaseResponse); the code the MCP spec drafts use for a cancelled request. */
const REQUEST_CANCELLED = -32800;

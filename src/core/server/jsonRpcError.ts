/**
 * Errors the HTTP layer answers itself, shaped like JSON-RPC errors so an MCP client shows the
 * message instead of a bare status code.
 */
import type { ServerResponse } from "node:http";
import { sendJson } from "./sendJson";

/** JSON-RPC: -32700 parse error, -32600 invalid request; -32000 to -32099 are server-defined. */
export const ErrorCode = { parse: -32700, invalidRequest: -32600, server: -32000, sessionNotFound: -32001 } as const;

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

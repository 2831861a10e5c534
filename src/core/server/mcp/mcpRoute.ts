/**
 * The `/mcp` route: Streamable HTTP for MCP clients, behind the server's Host/Origin and agent-token
 * checks (checkedHttpServer.ts). This file adds the body cap (413, after the rest of the body is
 * read and thrown away, so the client sees it), JSON (400), and the request's session
 * (sessions.ts), then hands it to that session's transport. Tools are the caller's
 * (`registerTools`); this file knows none of them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolCallTracker } from "../../mcp";
import type { Clock } from "../../util";
import { header, type Route } from "../checkedHttpServer";
import { ErrorCode, sendJsonRpcError } from "../jsonRpcError";
import { isInitialize, readBody } from "../requestBody";
import { cancelRequests, requestIds } from "./cancelledRequests";
import { DEFAULT_PROGRESS_INTERVAL_MS } from "./progressKeepAlive";
import { type Refusal, type Session, SessionTable } from "./sessions";
import { type RegisterTools, toolAdder } from "./toolRegistrar";
import { sendWebResponse, toWebRequest } from "./webBridge";

export const MCP_PATH = "/mcp";

export interface McpRouteOptions {
  tracker: ToolCallTracker;
  registerTools: RegisterTools;
  maxBodyBytes: number;
  name?: string;
  version?: string;
  progressIntervalMs?: number;
  /** An MCP session with no request for this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** At most this many MCP sessions (default 64). */
  maxSessions?: number;
  /** For the session expiry. */
  clock?: Clock;
  log: (message: string) => void;
}

export interface McpRoute extends Route {
  /** MCP sessions open now (at most `maxSessions`). */
  openSessions(): number;
}

export function mcpRoute(opts: McpRouteOptions): McpRoute {
  const { maxBodyBytes } = opts;
  const progressIntervalMs = opts.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const sessions = new SessionTable(
    () => {
      const server = new McpServer({ name: opts.name ?? "arcadia", version: opts.version ?? "0.0.0" });
      opts.registerTools(toolAdder(server, opts.tracker, progressIntervalMs), server);
      return server;
    },
    { idleMs: opts.sessionIdleMs, maxSessions: opts.maxSessions, clock: opts.clock, log: opts.log },
  );

  async function handle(req: IncomingMessage, res: ServerResponse, { agentId, url }: { agentId: string; url: URL }): Promise<void> {
    let parsedBody: unknown;
    if (req.method === "POST") {
      const body = await readBody(req, maxBodyBytes);
      if (body.kind === "tooLarge") {
        sendJsonRpcError(res, 413, ErrorCode.server, `Request body larger than ${maxBodyBytes} bytes`, { connection: "close" });
        return;
      }
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        sendJsonRpcError(res, 400, ErrorCode.parse, "Parse error: the body is not JSON");
        return;
      }
    }

    const found = await sessionFor(req, parsedBody, agentId);
    if (found === "missing") {
      sendJsonRpcError(res, 400, ErrorCode.server, "Bad Request: no Mcp-Session-Id header, and not an initialize request");
      return;
    }
    if (found === "gone" || found === "badId") {
      sendJsonRpcError(res, 404, ErrorCode.sessionNotFound, "Session not found");
      return;
    }
    if (found === "full") {
      sendJsonRpcError(res, 503, ErrorCode.server, "Too many MCP sessions, each answering a request: try again when a call has ended");
      return;
    }
    const session = found;
    // A request being answered keeps its session from expiring or being evicted (an SSE response
    // lasts as long as its tool call). The GET stream is only a channel for server messages: it
    // keeps nothing alive.
    const id = session.transport.sessionId;
    const done = id !== undefined && req.method === "POST" ? sessions.begin(id) : () => undefined;
    res.once("close", done);
    // A client that drops the connection before its answer has given up, like one that cancels:
    // its calls end now (and their approvals and diffs with them), not whenever they would finish.
    const ids = requestIds(parsedBody);
    const onGone = () => {
      if (!res.writableEnded) cancelRequests(session.transport, ids, "the client disconnected");
    };
    if (ids.length > 0) res.once("close", onGone);
    // The agent, as authenticated, reaches tool callbacks as `extra.authInfo.clientId`.
    const response = await session.transport.handleRequest(toWebRequest(req, url.href), { parsedBody, authInfo: { token: "", clientId: agentId, scopes: [] } });
    // Gone while the transport took the request in: the close above came before the calls existed.
    if (ids.length > 0 && res.destroyed) onGone();
    // An initialize the transport refused leaves a session nobody can reach: let it go.
    if (session.transport.sessionId === undefined) void session.server.close().catch(() => undefined);
    await sendWebResponse(response, res);
  }

  async function sessionFor(req: IncomingMessage, parsedBody: unknown, agentId: string): Promise<Session | Refusal | "missing" | "gone"> {
    if (req.method === "POST" && isInitialize(parsedBody)) return sessions.create(agentId);
    const id = header(req, "mcp-session-id");
    if (id === undefined) return "missing";
    const known = sessions.lookup(id, agentId);
    if (known.kind === "found") return known.session;
    // Another agent's session: as far as this agent can tell, it does not exist.
    if (known.kind === "notYours") return "gone";
    // Ending a session nobody knows: nothing to recover.
    if (req.method === "DELETE") return "gone";
    return sessions.recover(id, header(req, "mcp-protocol-version"), agentId);
  }

  return {
    path: MCP_PATH,
    handle,
    close: () => sessions.closeAll(),
    openSessions: () => sessions.size,
  };
}

/**
 * The embedded MCP server: Streamable HTTP on 127.0.0.1, one per VS Code window.
 *
 * Every request passes, in order: loopback Host/Origin (403), bearer token (401), both answered
 * and closed without reading the body; path (404), body cap (413, after the rest of the body is
 * read and thrown away, so the client sees it); JSON (400); then goes to its session's transport. Tools are the caller's
 * (`registerTools`); this file knows none of them. With `hooks`, the same server also takes
 * Claude Code's HTTP hooks at `/hooks`, after the same Host/Origin and token checks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolCallTracker } from "../toolCallTracker";
import { hasBearerToken, newToken } from "./auth";
import { handleHookRequest, type HookEndpoint, HOOKS_PATH } from "./hookRoute";
import { ErrorCode, sendJsonRpcError } from "./jsonRpcError";
import { isLoopbackHost, isLoopbackOrigin } from "./loopbackCheck";
import { DEFAULT_PROGRESS_INTERVAL_MS } from "./progressKeepAlive";
import { isInitialize, readBody } from "./requestBody";
import { type Session, SessionTable } from "./sessions";
import { type RegisterTools, toolAdder } from "./toolRegistrar";
import { sendWebResponse, toWebRequest } from "./webBridge";

export const MCP_PATH = "/mcp";
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface StartMcpServerOptions {
  tracker: ToolCallTracker;
  registerTools: RegisterTools;
  /** 0 (the default): a free port. */
  port?: number;
  /** Default: 256 random bits, base64url. */
  token?: string;
  name?: string;
  version?: string;
  progressIntervalMs?: number;
  maxBodyBytes?: number;
  log?: (message: string) => void;
  /** Answers Claude Code's HTTP hooks POSTed to `/hooks` (the same token, Host/Origin check and
   * body cap as `/mcp`). Without it, `/hooks` is a 404 like any other unknown path. */
  hooks?: HookEndpoint;
}

export interface RunningMcpServer {
  port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  token: string;
  /** `http://127.0.0.1:<port>/hooks`: where hook settings point (answers only with `hooks`). */
  hooksUrl: string;
  close(): Promise<void>;
}

export async function startMcpServer(opts: StartMcpServerOptions): Promise<RunningMcpServer> {
  const token = opts.token ?? newToken();
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const progressIntervalMs = opts.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const log = opts.log ?? (() => undefined);

  const sessions = new SessionTable(() => {
    const server = new McpServer({ name: opts.name ?? "arcadia", version: opts.version ?? "0.0.0" });
    opts.registerTools(toolAdder(server, opts.tracker, progressIntervalMs), server);
    return server;
  });

  let port = opts.port ?? 0;
  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`MCP request failed: ${err instanceof Error ? err.message : String(err)}`);
      sendJsonRpcError(res, 500, ErrorCode.server, "Internal server error");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A stranger gets its answer and the connection closes: its body is never read (Node, told
    // `connection: close`, does not drain it either), so it costs neither memory nor waiting.
    if (!isLoopbackHost(req.headers.host, port) || !isLoopbackOrigin(req.headers.origin, port)) {
      sendJsonRpcError(res, 403, ErrorCode.server, "Forbidden: this server answers only 127.0.0.1/localhost on its own port", { connection: "close" });
      return;
    }
    if (!hasBearerToken(req.headers.authorization, token)) {
      sendJsonRpcError(res, 401, ErrorCode.server, "Unauthorized: missing or wrong bearer token", { "www-authenticate": "Bearer", connection: "close" });
      return;
    }
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (opts.hooks && url.pathname === HOOKS_PATH) {
      await handleHookRequest(req, res, opts.hooks, maxBodyBytes, log);
      return;
    }
    if (url.pathname !== MCP_PATH) {
      sendJsonRpcError(res, 404, ErrorCode.server, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }

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

    const session = await sessionFor(req, parsedBody);
    if (session === "missing") {
      sendJsonRpcError(res, 400, ErrorCode.server, "Bad Request: no Mcp-Session-Id header, and not an initialize request");
      return;
    }
    if (session === "gone") {
      sendJsonRpcError(res, 404, ErrorCode.sessionNotFound, "Session not found");
      return;
    }
    const response = await session.transport.handleRequest(toWebRequest(req, url.href), { parsedBody });
    // An initialize the transport refused leaves a session nobody can reach: let it go.
    if (session.transport.sessionId === undefined) void session.server.close().catch(() => undefined);
    await sendWebResponse(response, res);
  }

  async function sessionFor(req: IncomingMessage, parsedBody: unknown): Promise<Session | "missing" | "gone"> {
    if (req.method === "POST" && isInitialize(parsedBody)) return sessions.create();
    const id = header(req, "mcp-session-id");
    if (id === undefined) return "missing";
    const known = sessions.get(id);
    if (known) return known;
    // Ending a session nobody knows: nothing to recover.
    if (req.method === "DELETE") return "gone";
    log(`MCP: recovering unknown session ${id} (the extension was probably reloaded)`);
    return sessions.recover(id, header(req, "mcp-protocol-version"));
  }

  await listen(http, port);
  port = (http.address() as AddressInfo).port;
  log(`MCP server listening on 127.0.0.1:${port}`);

  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    token,
    hooksUrl: `http://127.0.0.1:${port}${HOOKS_PATH}`,
    async close() {
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        // Open SSE streams would keep close() waiting forever.
        http.closeAllConnections();
      });
    },
  };
}

function listen(http: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      http.off("listening", onListening);
      if (err.code === "EADDRINUSE") reject(new Error(`MCP server: port ${port} is in use; choose another port, or 0 for a free one`, { cause: err }));
      else if (err.code === "EACCES") reject(new Error(`MCP server: not allowed to listen on port ${port}`, { cause: err }));
      else reject(err);
    };
    const onListening = () => {
      http.off("error", onError);
      resolve();
    };
    http.once("error", onError);
    http.once("listening", onListening);
    http.listen(port, "127.0.0.1");
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

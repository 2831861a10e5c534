/**
 * HTTP on 127.0.0.1 where every request passes the same checks before any route sees it:
 * each of Host, Origin, Authorization and the agent header at most once (400), loopback
 * Host/Origin (403, loopbackCheck.ts), then the bearer token of the agent named in the
 * agent header (401, auth.ts: one token per agent). Both refusals are answered and the connection
 * closed without reading the body. Then the path picks a route (404 when none); the route gets
 * the agent as authenticated and does the rest (body cap, parsing, its own answers).
 *
 * Routes (mcp/mcpRoute.ts, hooks/hookRoute.ts) depend on this file; it knows none of them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { AGENT_HEADER, agentToken, authenticatedAgent, KnownAgents, newToken } from "./auth";
import { ErrorCode, sendJsonRpcError } from "./jsonRpcError";
import { isLoopbackHost, isLoopbackOrigin } from "./loopbackCheck";
import { errorMessage } from "../util";

/** One path of the server, e.g. `/mcp`. */
export interface Route {
  path: string;
  /** Runs only for a loopback request carrying the named agent's own token. */
  handle(req: IncomingMessage, res: ServerResponse, request: { agentId: string; url: URL }): Promise<void>;
  /** Called by `close()` before the HTTP server closes (e.g. MCP sessions). */
  close?(): Promise<void>;
}

export interface CheckedHttpServerOptions {
  routes: readonly Route[];
  /** 0 (the default): a free port. */
  port?: number;
  /** What every agent token is derived from (auth.ts). Default: 256 random bits, base64url. */
  windowSecret?: string;
  log?: (message: string) => void;
}

export interface CheckedHttpServer {
  port: number;
  /** Never handed to an agent: agents get `tokenFor(agentId)`. Saved across window reloads. */
  windowSecret: string;
  /** The bearer token of one agent (its launch files carry it, with its id in AGENT_HEADER). */
  tokenFor(agentId: string): string;
  /** `http://127.0.0.1:<port><path>` */
  urlOf(path: string): string;
  /** TCP connections open now, idle keep-alive ones included (those close after Node's 5 s). */
  openConnections(): number;
  /** POST responses not ended yet: an SSE response lasts as long as its call, so a response left
   * open by a call nobody waits for any more would show here (the GET stream does not count). */
  openPostResponses(): number;
  close(): Promise<void>;
}

/** Headers that must come once: which server, from where, who. */
const SINGLE_HEADERS = ["host", "origin", "authorization", AGENT_HEADER.toLowerCase()];

function repeatedHeader(req: IncomingMessage): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    if (!SINGLE_HEADERS.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

export async function startCheckedHttpServer(opts: CheckedHttpServerOptions): Promise<CheckedHttpServer> {
  const windowSecret = opts.windowSecret ?? newToken();
  const log = opts.log ?? (() => undefined);
  const routes = new Map(opts.routes.map((route) => [route.path, route]));
  const paths = [...routes.keys()].join(", ");
  const known = new KnownAgents();

  let port = opts.port ?? 0;
  let postResponses = 0;
  const http = createServer((req, res) => {
    if (req.method === "POST") {
      postResponses++;
      res.once("close", () => postResponses--);
    }
    handle(req, res).catch((err: unknown) => {
      log(`MCP request failed: ${errorMessage(err)}`);
      sendJsonRpcError(res, 500, ErrorCode.server, "Internal server error");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Node keeps the first of two Host (or Authorization) headers and drops the rest: a request
    // saying two things about who it is for or from is answered 400 (RFC 9112 §3.2), never guessed at.
    const repeated = repeatedHeader(req);
    if (repeated) {
      sendJsonRpcError(res, 400, ErrorCode.server, `Bad request: more than one ${repeated} header`, { connection: "close" });
      return;
    }
    // A stranger gets its answer and the connection closes: its body is never read (Node, told
    // `connection: close`, does not drain it either), so it costs neither memory nor waiting.
    if (!isLoopbackHost(req.headers.host, port) || !isLoopbackOrigin(req.headers.origin, port)) {
      sendJsonRpcError(res, 403, ErrorCode.server, "Forbidden: this server answers only 127.0.0.1/localhost on its own port", { connection: "close" });
      return;
    }
    const agentId = authenticatedAgent(req.headers.authorization, header(req, AGENT_HEADER), windowSecret, known);
    if (agentId === undefined) {
      sendJsonRpcError(res, 401, ErrorCode.server, `Unauthorized: missing or wrong bearer token for the agent named in ${AGENT_HEADER}`, {
        "www-authenticate": "Bearer",
        connection: "close",
      });
      return;
    }
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const route = routes.get(url.pathname);
    if (!route) {
      sendJsonRpcError(res, 404, ErrorCode.server, `Not found: this server answers at ${paths}`);
      return;
    }
    await route.handle(req, res, { agentId, url });
  }

  const connections = new Set<Socket>();
  http.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });

  await listen(http, port);
  port = (http.address() as AddressInfo).port;
  log(`MCP server listening on 127.0.0.1:${port}`);

  return {
    port,
    windowSecret,
    tokenFor: (agentId) => agentToken(windowSecret, agentId),
    urlOf: (path) => `http://127.0.0.1:${port}${path}`,
    openConnections: () => connections.size,
    openPostResponses: () => postResponses,
    async close() {
      for (const route of opts.routes) await route.close?.();
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

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

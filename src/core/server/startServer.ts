/**
 * The window's one loopback server: MCP at `/mcp` (mcp/mcpRoute.ts) and, with `hooks`, Claude
 * Code's HTTP hooks at `/hooks` (hooks/hookRoute.ts), sibling routes behind the same checks
 * (checkedHttpServer.ts: loopback Host/Origin 403, the named agent's own token 401, path 404).
 * This file only puts them together; each route owns its body cap and its answers.
 */
import type { ToolCallTracker } from "../mcp";
import type { Clock } from "../util";
import { type CheckedHttpServer, type Route, startCheckedHttpServer } from "./checkedHttpServer";
import { type HookEndpoint, hookRoute, HOOKS_PATH } from "./hooks/hookRoute";
import { MCP_PATH, mcpRoute } from "./mcp/mcpRoute";
import type { RegisterTools } from "./mcp/toolRegistrar";

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface LoopbackServerOptions {
  tracker: ToolCallTracker;
  registerTools: RegisterTools;
  /** 0 (the default): a free port. */
  port?: number;
  /** What every agent token is derived from (auth.ts). Default: 256 random bits, base64url. */
  windowSecret?: string;
  name?: string;
  version?: string;
  progressIntervalMs?: number;
  /** Per request, on both routes. */
  maxBodyBytes?: number;
  log?: (message: string) => void;
  /** Answers Claude Code's HTTP hooks POSTed to `/hooks` (the same token, Host/Origin check and
   * body cap as `/mcp`). Without it, `/hooks` is a 404 like any other unknown path. */
  hooks?: HookEndpoint;
  /** An MCP session with no request for this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** At most this many MCP sessions (default 64). */
  maxSessions?: number;
  /** For the session expiry. */
  clock?: Clock;
}

export interface RunningLoopbackServer extends Omit<CheckedHttpServer, "urlOf"> {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** `http://127.0.0.1:<port>/hooks`: where hook settings point (answers only with `hooks`). */
  hooksUrl: string;
  /** MCP sessions open now (at most `maxSessions`). */
  openSessions(): number;
}

export async function startLoopbackServer(opts: LoopbackServerOptions): Promise<RunningLoopbackServer> {
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = opts.log ?? (() => undefined);
  const mcp = mcpRoute({ ...opts, maxBodyBytes, log });
  const routes: Route[] = [mcp];
  if (opts.hooks) routes.push(hookRoute({ endpoint: opts.hooks, maxBodyBytes, log }));
  const { urlOf, ...server } = await startCheckedHttpServer({ routes, port: opts.port, windowSecret: opts.windowSecret, log });
  return { ...server, url: urlOf(MCP_PATH), hooksUrl: urlOf(HOOKS_PATH), openSessions: () => mcp.openSessions() };
}

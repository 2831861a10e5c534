/**
 * One MCP session = one transport + one McpServer (an McpServer serves a single transport).
 *
 * Sessions live in memory, so after the extension reloads a client comes back with a session id
 * nobody knows. The spec says answer 404 and let the client re-initialize, but clients in the
 * field (Claude Code among them) then fail the call instead. So an unknown id gets a fresh session
 * under that same id, initialized on the client's behalf, and the request goes through.
 */
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

export interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

export class SessionTable {
  /** A promise, so two requests recovering the same id at once share one session. */
  private readonly sessions = new Map<string, Promise<Session>>();
  private closed = false;

  /** `newServer` makes an McpServer with the tools registered. */
  constructor(private readonly newServer: () => McpServer) {}

  get(id: string): Promise<Session> | undefined {
    return this.sessions.get(id);
  }

  /** A session for an `initialize`; it enters the table once the transport has assigned its id. */
  async create(): Promise<Session> {
    return this.open(() => randomUUID());
  }

  /** A session under a known id, initialized on the client's behalf (see above). */
  recover(id: string, protocolVersion: string | undefined): Promise<Session> {
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const recovering = this.open(() => id).then(async (session) => {
      await initializeOnBehalf(session.transport, id, protocolVersion);
      return session;
    });
    this.sessions.set(id, recovering);
    recovering.catch(() => this.sessions.delete(id));
    return recovering;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    const all = await Promise.allSettled([...this.sessions.values()]);
    this.sessions.clear();
    await Promise.allSettled(all.flatMap((s) => (s.status === "fulfilled" ? [s.value.server.close()] : [])));
  }

  private async open(sessionId: () => string): Promise<Session> {
    if (this.closed) throw new Error("the MCP server is closing");
    const server = this.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: sessionId,
      onsessioninitialized: (id) => {
        if (!this.sessions.has(id)) this.sessions.set(id, Promise.resolve(session));
      },
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    const session: Session = { transport, server };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) this.sessions.delete(id);
    };
    await server.connect(transport);
    return session;
  }
}

/** The `initialize` + `notifications/initialized` a client sent to the previous extension host. */
async function initializeOnBehalf(transport: WebStandardStreamableHTTPServerTransport, id: string, protocolVersion: string | undefined): Promise<void> {
  const version = protocolVersion && SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : LATEST_PROTOCOL_VERSION;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    transport.handleRequest(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers },
      }),
      { parsedBody: body },
    );
  const init = await post({
    jsonrpc: "2.0",
    id: `arcadia-recover-${id}`,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "arcadia-recovered-session", version: "0" } },
  });
  // Read it out: the stream ends once the initialize response has been written.
  await init.text();
  if (!init.ok) throw new Error(`could not recover MCP session ${id}: initialize answered ${init.status}`);
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id, "mcp-protocol-version": version });
  await initialized.text();
}

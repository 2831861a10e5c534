/**
 * One MCP session = one transport + one McpServer (an McpServer serves a single transport),
 * owned by the agent that opened it: another agent presenting its id is told it does not exist.
 *
 * Sessions live in memory, so after the extension reloads a client comes back with a session id
 * nobody knows. The spec says answer 404 and let the client re-initialize, but clients in the
 * field (Claude Code among them) then fail the call instead. So an unknown id gets a fresh session
 * under that same id, initialized on the client's behalf, and the request goes through — only for
 * an authenticated agent (every request here is one), only for a UUID-shaped id (what we hand
 * out), and counted toward the cap like any other session.
 *
 * Bounded: a session with no request for `idleMs` is closed (its client, if it ever comes back,
 * is recovered as above), and at most `maxSessions` exist; a new one past that closes the least
 * recently used session with no request in flight, or is refused when every session is busy.
 */
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { type Clock, systemClock, type TimerHandle } from "../../util";
import { endCancelledRequests } from "./cancelledRequests";

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 64;

export interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

export interface SessionLimits {
  idleMs?: number;
  maxSessions?: number;
  clock?: Clock;
  log?: (message: string) => void;
}

/** What a request finds under a session id. */
export type Lookup = { kind: "found"; session: Promise<Session> } | { kind: "unknown" } | { kind: "notYours" };

/** Why no session could be made. */
export type Refusal = "full" | "badId";

interface Slot {
  session: Promise<Session>;
  agentId: string;
  lastUsed: number;
  /** Requests of this session being answered now (a long tool call included). */
  busy: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SessionTable {
  private readonly slots = new Map<string, Slot>();
  private closed = false;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  private sweepTimer: TimerHandle | undefined;

  /** `newServer` makes an McpServer with the tools registered. */
  constructor(
    private readonly newServer: () => McpServer,
    limits: SessionLimits = {},
  ) {
    this.idleMs = limits.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = limits.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.clock = limits.clock ?? systemClock;
    this.log = limits.log ?? (() => undefined);
  }

  get size(): number {
    return this.slots.size;
  }

  /** The session `id` for a request by `agentId`. */
  lookup(id: string, agentId: string): Lookup {
    const slot = this.slots.get(id);
    if (!slot) return { kind: "unknown" };
    if (slot.agentId !== agentId) return { kind: "notYours" };
    slot.lastUsed = this.clock.now();
    return { kind: "found", session: slot.session };
  }

  /**
   * Marks a request of session `id` as being answered: the session is neither idle nor evicted
   * until the returned function is called (once the response has ended).
   */
  begin(id: string): () => void {
    const slot = this.slots.get(id);
    if (!slot) return () => undefined;
    slot.busy++;
    slot.lastUsed = this.clock.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      slot.busy--;
      slot.lastUsed = this.clock.now();
    };
  }

  /**
   * A session for an `initialize`; it enters the table once the transport has assigned its id.
   * (Two initializes at the same instant may both pass the cap; the next new session trims back.)
   */
  async create(agentId: string): Promise<Session | Refusal> {
    if (!this.makeRoom()) return "full";
    return this.open(() => randomUUID(), agentId);
  }

  /** A session under a known id, initialized on the client's behalf (see above). */
  recover(id: string, protocolVersion: string | undefined, agentId: string): Promise<Session> | Refusal {
    const existing = this.slots.get(id);
    if (existing) return existing.agentId === agentId ? existing.session : "badId";
    if (!UUID.test(id)) return "badId";
    if (!this.makeRoom()) return "full";
    this.log(`MCP: recovering unknown session ${id} for agent ${agentId} (the extension was probably reloaded, or the session expired)`);
    const recovering = this.open(() => id, agentId).then(async (session) => {
      await initializeOnBehalf(session.transport, id, protocolVersion);
      return session;
    });
    this.slots.set(id, { session: recovering, agentId, lastUsed: this.clock.now(), busy: 0 });
    this.armSweep();
    recovering.catch(() => this.slots.delete(id));
    return recovering;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    this.sweepTimer?.cancel();
    const all = await Promise.allSettled([...this.slots.values()].map((s) => s.session));
    this.slots.clear();
    await Promise.allSettled(all.flatMap((s) => (s.status === "fulfilled" ? [s.value.server.close()] : [])));
  }

  /** Closes sessions idle for `idleMs` or more. */
  sweep(): void {
    const now = this.clock.now();
    for (const [id, slot] of [...this.slots]) {
      if (slot.busy === 0 && now - slot.lastUsed >= this.idleMs) {
        this.log(`MCP: session ${id} of agent ${slot.agentId} closed after ${Math.round((now - slot.lastUsed) / 60_000)} min without a request`);
        this.drop(id, slot);
      }
    }
  }

  /** Whether a new session fits, after closing the least recently used idle one if needed. */
  private makeRoom(): boolean {
    if (this.closed) return false;
    this.sweep();
    while (this.slots.size >= this.maxSessions) {
      let oldest: [string, Slot] | undefined;
      for (const entry of this.slots) if (entry[1].busy === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry;
      if (!oldest) {
        this.log(`MCP: a new session was refused: ${this.maxSessions} sessions exist, each answering a request`);
        return false;
      }
      this.log(`MCP: session ${oldest[0]} of agent ${oldest[1].agentId} closed to make room (at most ${this.maxSessions} sessions)`);
      this.drop(...oldest);
    }
    return true;
  }

  private drop(id: string, slot: Slot): void {
    this.slots.delete(id);
    void slot.session.then((s) => s.server.close()).catch(() => undefined);
  }

  private armSweep(): void {
    if (this.sweepTimer || this.closed) return;
    // Often enough that a session lives at most a quarter longer than idleMs.
    const every = Math.max(1000, Math.min(this.idleMs / 4, 60_000));
    this.sweepTimer = this.clock.setTimeout(() => {
      this.sweepTimer = undefined;
      this.sweep();
      if (this.slots.size > 0) this.armSweep();
    }, every);
  }

  private async open(sessionId: () => string, agentId: string): Promise<Session> {
    if (this.closed) throw new Error("the MCP server is closing");
    const server = this.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: sessionId,
      onsessioninitialized: (id) => {
        if (!this.slots.has(id)) this.slots.set(id, { session: Promise.resolve(session), agentId, lastUsed: this.clock.now(), busy: 0 });
        this.armSweep();
      },
      onsessionclosed: (id) => void this.forget(id, session),
    });
    const session: Session = { transport, server };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) void this.forget(id, session);
    };
    await server.connect(transport);
    endCancelledRequests(transport);
    return session;
  }

  /** Removes `id` only if it is still this session (a recovered one may have taken the id). */
  private async forget(id: string, session: Session): Promise<void> {
    const slot = this.slots.get(id);
    if (slot && (await slot.session.catch(() => undefined)) === session && this.slots.get(id) === slot) this.slots.delete(id);
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

/**
 * Who is calling. 127.0.0.1 alone is reachable by anything running locally, so every request
 * carries a bearer token; and since several agents share one server, the token also says which
 * agent it is: each agent has its own,
 *
 *   agent token = base64url(HMAC-SHA256(window secret, "agent:" + agent id)),
 *
 * written only into that agent's launch files, presented with the agent header naming it. The
 * server recomputes the token of the agent the header names and compares: an agent that names
 * another agent (with its own token) is refused, so identity comes from the secret, not the
 * header. The window secret itself is never written to any file and is accepted from nobody: no
 * legitimate caller holds it (the extension host mints agent tokens from it), and a request that
 * acts for no agent has nothing to do here. It survives a window reload (secret storage), so the
 * tokens in files written before a reload stay valid.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The header a launched agent's MCP config and hook settings set, naming the Arcadia agent it
 * belongs to; believed only with that agent's own token. */
export const AGENT_HEADER = "x-arcadia-agent";

/** What every request of an agent carries (its launch files write these headers). `token`: the
 * agent's own (`tokenFor(agentId)`), never the window secret. */
export function agentHeaders(token: string, agentId: string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, [AGENT_HEADER]: agentId };
}

/** 256 random bits, base64url: safe in a header and in a JSON config file. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Agent ids are ours (UUIDs; tests use short names): anything else in the header is refused. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The token an agent presents (see above). */
export function agentToken(windowSecret: string, agentId: string): string {
  return createHmac("sha256", windowSecret).update(`agent:${agentId}`, "utf8").digest("base64url");
}

/**
 * The agent a request authenticates as: the agent header names it and the bearer token is that
 * agent's. Undefined for anything else (no header, a malformed id, a wrong or foreign token,
 * the bare window secret). The comparison takes the same time whatever the first wrong byte is:
 * on SHA-256 digests (whatever the length too), or, for an agent already served (`known`), on the
 * token's bytes, whose length is no secret (every agent token is 43 base64url characters).
 */
export function authenticatedAgent(
  authorization: string | undefined,
  claimedAgent: string | undefined,
  windowSecret: string,
  known?: KnownAgents,
): string | undefined {
  const presented = bearerToken(authorization);
  if (presented === undefined || claimedAgent === undefined || !AGENT_ID.test(claimedAgent)) return undefined;
  const knownToken = known?.token(claimedAgent);
  if (knownToken) {
    const bytes = Buffer.from(presented, "utf8");
    return bytes.length === knownToken.length && timingSafeEqual(bytes, knownToken) ? claimedAgent : undefined;
  }
  const token = agentToken(windowSecret, claimedAgent);
  if (!timingSafeEqual(digest(presented), digest(token))) return undefined;
  known?.remember(claimedAgent, Buffer.from(token, "utf8"));
  return claimedAgent;
}

/** At most this many agents' tokens are kept (a window has tens): past it they are forgotten and made again. */
const KNOWN_AGENTS_MAX = 1024;

/**
 * The tokens of agents that have already been served, for one window secret: an HMAC and two hashes
 * per request were most of what a request cost before its route (fifty agents post a hook every few
 * hundred ms each). Only an agent that presented its own token is remembered, so what a stranger
 * sends never grows it.
 */
export class KnownAgents {
  private readonly tokens = new Map<string, Buffer>();

  token(agentId: string): Buffer | undefined {
    return this.tokens.get(agentId);
  }

  remember(agentId: string, token: Buffer): void {
    if (this.tokens.has(agentId)) return;
    if (this.tokens.size >= KNOWN_AGENTS_MAX) this.tokens.clear();
    this.tokens.set(agentId, token);
  }
}

/** The token of an `Authorization: Bearer <token>` header, if it is exactly that. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
}

/** Whether an `Authorization` header carries exactly `Bearer <token>` (constant time). */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  const presented = bearerToken(header);
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

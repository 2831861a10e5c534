/**
 * Attack class: memory through MCP sessions. Each session holds a transport and an McpServer with
 * every tool; sessions used to live forever, and any unknown id (garbage included) minted a new
 * one. Now: idle sessions close, at most `maxSessions` exist (the least recently used idle one
 * makes room, never one answering a call), and only UUID-shaped unknown ids are recovered (a
 * window reload must keep working). Real SDK clients over loopback; session time on a ManualClock.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_HEADER } from "../../../src/core/server";
import { ManualClock } from "../../../src/core/util/clock";
import { type ArcadiaServer, eventually, startArcadiaServer } from "./support/arcadiaServer";

const MINUTE = 60_000;
let arcadia: ArcadiaServer;
let clock: ManualClock;
const logs: string[] = [];
afterEach(async () => {
  logs.length = 0;
  await arcadia?.close();
});

async function start(maxSessions = 3) {
  clock = new ManualClock(1_000_000);
  arcadia = await startArcadiaServer({ clock, sessionIdleMs: 30 * MINUTE, maxSessions, log: (m) => logs.push(m) });
}

function post(sessionId: string, body: object, agentId = "agent-1"): Promise<number> {
  const { server } = arcadia;
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${server.tokenFor(agentId)}`,
      [AGENT_HEADER]: agentId,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-06-18",
    };
    const req = request(server.url, { method: "POST", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const listTools = { jsonrpc: "2.0", id: 7, method: "tools/list" };

describe("idle MCP sessions", () => {
  it("close after 30 minutes without a request; the client's next call still works (recovered)", async () => {
    await start();
    const client = await arcadia.client("agent-1");
    expect(arcadia.server.openSessions()).toBe(1);
    clock.advance(29 * MINUTE);
    expect(arcadia.server.openSessions()).toBe(1);
    clock.advance(10 * MINUTE);
    expect(arcadia.server.openSessions()).toBe(0);
    expect(logs.some((l) => /closed after \d+ min without a request/.test(l))).toBe(true);
    // Control: the agent comes back (as Claude Code does after a reload) and is served.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(arcadia.server.openSessions()).toBe(1);
  });

  it("stay open while a call is being answered, however long it takes", async () => {
    await start();
    const client = await arcadia.client("agent-1");
    const asked = arcadia.nextApproval();
    const call = client.callTool({ name: "execute_command", arguments: { command: "true" } });
    const approval = await asked;
    clock.advance(120 * MINUTE);
    expect(arcadia.server.openSessions()).toBe(1);
    arcadia.approvals.decide(approval.id, "allow");
    expect((await call).isError).toBeFalsy();
  });
});

describe("the session cap", () => {
  it("never holds more than maxSessions: a new one closes the least recently used idle one", async () => {
    await start(3);
    const clients = [];
    for (let i = 0; i < 6; i++) {
      clients.push(await arcadia.client(`agent-${i}`));
      clock.advance(MINUTE);
      expect(arcadia.server.openSessions()).toBeLessThanOrEqual(3);
    }
    expect(logs.filter((l) => l.includes("to make room")).length).toBe(3);
    // Control: an evicted client is served again when it comes back.
    expect((await clients[0]!.listTools()).tools.length).toBeGreaterThan(0);
    expect(arcadia.server.openSessions()).toBe(3);
  });

  it("never closes a session with a call in flight; refuses a new one (503) when all are busy", async () => {
    await start(2);
    const oldest = await arcadia.client("agent-1");
    const asked = arcadia.nextApproval();
    const inFlight = oldest.callTool({ name: "execute_command", arguments: { command: "true" } });
    const approval = await asked;
    clock.advance(MINUTE);
    const second = await arcadia.client("agent-2");
    clock.advance(MINUTE);
    // The second (idle) session makes room, not the oldest one, which is answering a call.
    await arcadia.client("agent-3");
    expect(logs.filter((l) => l.includes("to make room"))).toHaveLength(1);
    arcadia.approvals.decide(approval.id, "allow");
    expect((await inFlight).isError).toBeFalsy();

    // Both sessions now busy: a new one is refused with a clear status, nothing is closed.
    const busy = [oldest, second].map(async (c) => {
      const next = arcadia.nextApproval();
      const call = c.callTool({ name: "execute_command", arguments: { command: "true" } });
      return { call, approval: await next };
    });
    const calls = await Promise.all(busy);
    await eventually(() => arcadia.tracker.calls().length === 2);
    await expect(arcadia.client("agent-4")).rejects.toThrow(/503|Too many MCP sessions/);
    for (const c of calls) arcadia.approvals.decide(c.approval.id, "deny");
    await Promise.all(calls.map((c) => c.call));
  });
});

describe("unknown session ids", () => {
  it("are recovered only when UUID-shaped; garbage gets 404 and no session", async () => {
    await start(3);
    for (const id of ["x", "../../etc", "a".repeat(5000), "3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b-extra"]) {
      expect(await post(id, listTools)).toBe(404);
    }
    expect(arcadia.server.openSessions()).toBe(0);
    // Control: an id we could have handed out (a reload lost it) is recovered.
    expect(await post("3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b", listTools)).toBe(200);
    expect(arcadia.server.openSessions()).toBe(1);
  });

  it("count toward the cap: recovering many ids never holds more than maxSessions", async () => {
    await start(3);
    for (let i = 0; i < 10; i++) {
      const id = `3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a${String(i).padStart(2, "0")}`;
      expect(await post(id, listTools)).toBe(200);
      clock.advance(1000);
      expect(arcadia.server.openSessions()).toBeLessThanOrEqual(3);
    }
  });
});

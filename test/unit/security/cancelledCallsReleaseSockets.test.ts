/**
 * Attack class: a client that gives up on its calls — cancels them (Escape in Claude Code sends
 * `notifications/cancelled`) or just drops the connection — must leave nothing behind: not the
 * call's SSE response (one socket and fd each: 1,000 cancels held ~1,000), not the call in the
 * tracker, not its approval (a late Allow would run the command for nobody). Real SDK client and
 * raw HTTP over loopback; every command asks first; `touch` of a marker file shows whether a late
 * Allow still ran anything.
 */
import { existsSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_HEADER } from "../../../src/core/server";
import { type ArcadiaServer, eventually, startArcadiaServer } from "./support/arcadiaServer";

let arcadia: ArcadiaServer;
afterEach(async () => arcadia?.close());

describe("a call the client cancels", () => {
  it("ends its response, its call and its approval at once; a late Allow runs nothing", async () => {
    arcadia = await startArcadiaServer();
    const client = await arcadia.client("agent-1");
    const marker = join(arcadia.workspace, "late-allow-ran");

    for (let i = 0; i < 20; i++) {
      const abort = new AbortController();
      const asked = arcadia.nextApproval();
      const call = client.callTool({ name: "execute_command", arguments: { command: `touch ${marker}` } }, undefined, { signal: abort.signal });
      const approval = await asked;
      abort.abort("user pressed Escape");
      await expect(call).rejects.toThrow();
      await eventually(() => arcadia.tracker.calls().length === 0 && arcadia.approvals.pending().length === 0);
      // The person clicks Allow on what they still saw a moment ago: nothing is left to allow.
      expect(arcadia.approvals.decide(approval.id, "allow")).toBe(false);
    }
    // Each cancelled call's SSE response used to stay open, holding its connection (and fd) for good.
    await eventually(() => arcadia.server.openPostResponses() === 0);
    expect(arcadia.server.openPostResponses()).toBe(0);
    // What is left are idle keep-alive connections the client may reuse (a handful, not 20).
    expect(arcadia.server.openConnections()).toBeLessThan(10);
    // Its approval is gone and its handler aborted: the runner was never asked to start it.
    expect(arcadia.commandsStarted).toEqual([]);
    expect(existsSync(marker)).toBe(false);

    // Control: the same call, allowed, runs, on the same client.
    const asked = arcadia.nextApproval();
    const call = client.callTool({ name: "execute_command", arguments: { command: `touch ${marker}` } });
    expect(arcadia.approvals.decide((await asked).id, "allow")).toBe(true);
    expect((await call).isError).toBeFalsy();
    expect(existsSync(marker)).toBe(true);
  });
});

/** A raw client: initialize, then a call whose connection it destroys once the call waits. */
function post(arcadiaServer: ArcadiaServer, body: object, sessionId?: string): { done: Promise<{ status: number; sessionId?: string; text: string }>; destroy(): void } {
  const { server } = arcadiaServer;
  const headers: Record<string, string> = {
    authorization: `Bearer ${server.tokenFor("agent-1")}`,
    [AGENT_HEADER]: "agent-1",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" } : {}),
  };
  const req = request(server.url, { method: "POST", headers, agent: false });
  const done = new Promise<{ status: number; sessionId?: string; text: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        text += c;
        // An SSE answer to a request ends with its response event: read that much.
        if (text.includes('"result"')) resolve({ status: res.statusCode ?? 0, sessionId: res.headers["mcp-session-id"] as string | undefined, text });
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, sessionId: res.headers["mcp-session-id"] as string | undefined, text }));
    });
    req.on("error", reject);
  });
  req.end(JSON.stringify(body));
  return { done, destroy: () => req.destroy() };
}

describe("a client that drops the connection of a call", () => {
  it("ends the call and its approval; a late Allow runs nothing; no socket is left", async () => {
    arcadia = await startArcadiaServer();
    const marker = join(arcadia.workspace, "late-allow-ran");
    const init = await post(arcadia, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    }).done;
    expect(init.status).toBe(200);
    const sessionId = init.sessionId as string;
    await post(arcadia, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId).done;

    const asked = arcadia.nextApproval();
    const call = post(arcadia, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "execute_command", arguments: { command: `touch ${marker}` } } }, sessionId);
    call.done.catch(() => undefined);
    const approval = await asked;
    expect(arcadia.tracker.calls()).toHaveLength(1);
    call.destroy();

    await eventually(() => arcadia.tracker.calls().length === 0);
    expect(arcadia.approvals.pending()).toEqual([]);
    expect(arcadia.approvals.decide(approval.id, "allow")).toBe(false);
    await eventually(() => arcadia.server.openConnections() === 0 && arcadia.server.openPostResponses() === 0);
    // Its approval is gone and its handler aborted: the runner was never asked to start it.
    expect(arcadia.commandsStarted).toEqual([]);
    expect(existsSync(marker)).toBe(false);

    // Control: the same session still works, and an allowed call runs.
    const askedAgain = arcadia.nextApproval();
    const again = post(arcadia, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "execute_command", arguments: { command: `touch ${marker}` } } }, sessionId);
    expect(arcadia.approvals.decide((await askedAgain).id, "allow")).toBe(true);
    expect((await again.done).text).toContain('"exit_code\\":0');
    expect(existsSync(marker)).toBe(true);
  });
});

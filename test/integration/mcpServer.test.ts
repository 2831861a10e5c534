/**
 * The embedded MCP server with the real SDK client over HTTP on 127.0.0.1 (no CLI needed).
 * Latencies are printed, never asserted.
 */
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_MAX_BODY_BYTES, startLoopbackServer, type RunningLoopbackServer, type LoopbackServerOptions } from "../../src/core/server";
import { type CallContext, type TrackedCall, ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../src/core/mcp/toolResult";

/** A running slow_echo call: its context, and a way to let it finish. */
interface SlowCall {
  context: CallContext;
  release: () => void;
}

interface Rig {
  server: RunningLoopbackServer;
  tracker: ToolCallTracker;
  /** Resolves with each slow_echo call as its handler starts. */
  nextSlowCall: () => Promise<SlowCall>;
  /** Resolves with each tracked call as it starts. */
  nextStarted: () => Promise<TrackedCall>;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length)
    await cleanups
      .pop()?.()
      .catch(() => undefined);
});

/** Items pushed as they come, taken in order by whoever waits. */
function queue<T>() {
  const items: T[] = [];
  const waiters: ((item: T) => void)[] = [];
  return {
    push(item: T) {
      const waiter = waiters.shift();
      if (waiter) waiter(item);
      else items.push(item);
    },
    next(): Promise<T> {
      const item = items.shift();
      return item !== undefined ? Promise.resolve(item) : new Promise((resolve) => waiters.push(resolve));
    },
  };
}

async function startRig(extra: Partial<LoopbackServerOptions> = {}, tracker = new ToolCallTracker()): Promise<Rig> {
  const slowCalls = queue<SlowCall>();
  const started = queue<TrackedCall>();
  tracker.onDidChange((c) => c.type === "started" && started.push(c.call));
  const server = await startLoopbackServer({
    tracker,
    progressIntervalMs: 50,
    ...extra,
    registerTools(addTool) {
      addTool({
        name: "echo",
        description: "Answers with its text.",
        inputSchema: { text: z.string() },
        display: (a) => a.text,
        handler: async (a) => jsonResult({ text: a.text }),
      });
      addTool({
        name: "slow_echo",
        description: "Answers with its text once released; stops when aborted.",
        inputSchema: { text: z.string() },
        display: (a) => a.text,
        handler: (a, context) =>
          new Promise((resolve) => {
            const release = () => resolve(jsonResult({ text: a.text }));
            context.signal.addEventListener("abort", () => resolve(jsonResult({ aborted: true }, true)), { once: true });
            slowCalls.push({ context, release });
          }),
      });
    },
  });
  cleanups.push(() => server.close());
  return { server, tracker, nextSlowCall: slowCalls.next, nextStarted: started.next };
}

/**
 * fetch, retried once when a pooled keep-alive socket turns out to be closed. Only the reload test
 * needs it: it restarts the server within a millisecond, before the client has seen the old
 * sockets close (a real reload takes seconds).
 */
const fetchRetryingStaleSocket: typeof fetch = async (input, init) => {
  // Each failure takes one dead socket out of the pool; there are only a few.
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(input, init);
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (attempt >= 5 || (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET")) throw err;
    }
  }
};

/** Connects as `agentId`, presenting that agent's own token (as its launch files would). */
async function connect(server: { url: string; tokenFor(agentId: string): string }, agentId = "agent-1") {
  const client = new Client({ name: "arcadia-test", version: "0" });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${server.tokenFor(agentId)}`, "x-arcadia-agent": agentId } },
    fetch: fetchRetryingStaleSocket,
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

const textOf = (result: unknown) => {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
};

/** A raw request with full control over the headers (fetch forbids setting Host). */
function raw(port: number, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: options.method ?? "POST", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        // Several writes without a content-length: the cap must hold while streaming.
        const body = Buffer.from(options.body);
        for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
      } else req.write(options.body);
    }
    req.end();
  });
}

const initializeBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

function goodHeaders(server: RunningLoopbackServer): Record<string, string> {
  return {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${server.tokenFor("agent-1")}`,
    "x-arcadia-agent": "agent-1",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
}

describe("embedded MCP server", () => {
  it("serves tools to the SDK client, with the agent header and the tool_use id reaching the tracker", async () => {
    const { server, nextStarted } = await startRig();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    expect(Buffer.from(server.tokenFor("agent-7"), "base64url").length).toBeGreaterThanOrEqual(16);
    const { client } = await connect(server, "agent-7");
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["echo", "slow_echo"]);
    const started = nextStarted();
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" }, _meta: { "claudecode/toolUseId": "toolu_01" } });
    expect(JSON.parse(textOf(result))).toEqual({ text: "hi" });
    expect(await started).toMatchObject({ toolName: "echo", display: "hi", agentId: "agent-7", toolUseId: "toolu_01" });
  });

  it("answers 401 without the agent's token, with a wrong one, another agent's, or the window secret", async () => {
    const { server } = await startRig();
    const headers = goodHeaders(server);
    const { authorization: _, ...noToken } = headers;
    const wrong = [
      noToken,
      { ...headers, authorization: "Bearer wrong" },
      { ...headers, authorization: server.tokenFor("agent-1") },
      { ...headers, authorization: `Bearer ${server.tokenFor("agent-2")}` },
      { ...headers, authorization: `Bearer ${server.windowSecret}` },
    ];
    for (const h of wrong) {
      const res = await raw(server.port, { headers: h, body: initializeBody });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("Unauthorized") } });
    }
    await expect(connect({ url: server.url, tokenFor: () => "nope" })).rejects.toThrow();
  });

  it("answers 403 to a foreign Host or Origin, and serves loopback ones", async () => {
    const { server } = await startRig();
    const headers = goodHeaders(server);
    const foreign = [
      { ...headers, host: `evil.example:${server.port}` },
      { ...headers, host: "127.0.0.1:1" },
      { ...headers, origin: "http://evil.example" },
      { ...headers, origin: `http://evil.example:${server.port}` },
    ];
    for (const h of foreign) {
      const res = await raw(server.port, { headers: h, body: initializeBody });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("Forbidden") } });
    }
    for (const h of [
      { ...headers, host: `localhost:${server.port}` },
      { ...headers, origin: `http://127.0.0.1:${server.port}` },
    ]) {
      expect((await raw(server.port, { headers: h, body: initializeBody })).status).toBe(200);
    }
  });

  it("answers 413 to an oversized body, announced or streamed, and keeps serving", async () => {
    const { server } = await startRig({ maxBodyBytes: 64 * 1024 });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(200 * 1024) } });
    const announced = await raw(server.port, { headers: goodHeaders(server), body: big });
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body)).toMatchObject({ error: { message: expect.stringContaining("larger than") } });
    const streamed = await raw(server.port, { headers: goodHeaders(server), body: big, chunked: true });
    expect(streamed.status).toBe(413);
    const { client } = await connect(server);
    expect(JSON.parse(textOf(await client.callTool({ name: "echo", arguments: { text: "still here" } })))).toEqual({ text: "still here" });
  });

  it("caps bodies at 4 MB by default", async () => {
    const { server } = await startRig();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(DEFAULT_MAX_BODY_BYTES) } });
    expect((await raw(server.port, { headers: goodHeaders(server), body })).status).toBe(413);
  });

  it("gives clear errors for bad JSON, no session, an unknown tool and invalid arguments, and keeps serving", async () => {
    const { server } = await startRig();
    const badJson = await raw(server.port, { headers: goodHeaders(server), body: "{not json" });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toMatchObject({ error: { code: -32700 } });
    const notRpc = await raw(server.port, {
      headers: { ...goodHeaders(server), "mcp-session-id": "3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b" },
      body: JSON.stringify({ hello: 1 }),
    });
    expect(notRpc.status).toBe(400);
    // A session id that is not one we could have handed out is not recovered.
    const garbageId = await raw(server.port, {
      headers: { ...goodHeaders(server), "mcp-session-id": "x" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(garbageId.status).toBe(404);
    const noSession = await raw(server.port, { headers: goodHeaders(server), body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
    expect(noSession.status).toBe(400);
    expect(noSession.body).toContain("Mcp-Session-Id");
    const wrongPath = await new Promise<number>((resolve, reject) =>
      httpRequest({ host: "127.0.0.1", port: server.port, path: "/other", headers: goodHeaders(server) }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end(),
    );
    expect(wrongPath).toBe(404);

    const { client } = await connect(server);
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      (r) => textOf(r),
      (e: Error) => e.message,
    );
    expect(unknown).toMatch(/no_such_tool/);
    const invalid = await client.callTool({ name: "echo", arguments: { text: 42 } }).then(
      (r) => `${r.isError ? "isError " : ""}${textOf(r)}`,
      (e: Error) => e.message,
    );
    expect(invalid).toMatch(/invalid|validation/i);
    expect(JSON.parse(textOf(await client.callTool({ name: "echo", arguments: { text: "ok" } })))).toEqual({ text: "ok" });
  });

  it("returns a call cancelled from the tracker to the client at once, and aborts its handler", async () => {
    const { server, tracker, nextSlowCall } = await startRig();
    const { client } = await connect(server);
    const pending = client.callTool({ name: "slow_echo", arguments: { text: "wait" } });
    const slow = await nextSlowCall();
    const t0 = performance.now();
    expect(tracker.cancelCall(slow.context.callId)).toBe(true);
    const result = await pending;
    console.log(`[mcpServer] cancel from the tracker → client has the result: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ status: "cancelled", tool: "slow_echo" });
    expect(slow.context.signal.aborted).toBe(true);
    expect(tracker.calls()).toEqual([]);
  });

  it("aborts the handler when the client cancels the call", async () => {
    const { server, tracker, nextSlowCall } = await startRig();
    const { client } = await connect(server);
    const abort = new AbortController();
    const pending = client.callTool({ name: "slow_echo", arguments: { text: "wait" } }, undefined, { signal: abort.signal });
    const slow = await nextSlowCall();
    const aborted = new Promise<void>((resolve) => slow.context.signal.addEventListener("abort", () => resolve(), { once: true }));
    const t0 = performance.now();
    abort.abort("user pressed Escape");
    await expect(pending).rejects.toThrow();
    await aborted;
    console.log(`[mcpServer] client cancel → handler aborted: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(slow.context.signal.aborted).toBe(true);
    await expect.poll(() => tracker.calls()).toEqual([]);
  });

  it("recovers a session the server no longer knows (extension reload)", async () => {
    const first = await startRig();
    const { client, transport } = await connect(first.server);
    expect(JSON.parse(textOf(await client.callTool({ name: "echo", arguments: { text: "before" } })))).toEqual({ text: "before" });
    const sessionId = transport.sessionId;
    expect(sessionId).toBeTruthy();
    // The reload: the same port and window secret, none of the sessions.
    await first.server.close();
    const second = await startRig({ port: first.server.port, windowSecret: first.server.windowSecret });
    const result = await client.callTool({ name: "echo", arguments: { text: "after" } });
    expect(JSON.parse(textOf(result))).toEqual({ text: "after" });
    expect(transport.sessionId).toBe(sessionId);
    // And the recovered session keeps working.
    expect((await client.listTools()).tools).toHaveLength(2);
    expect(second.server.port).toBe(first.server.port);
  });

  it("sends progress notifications while a long call runs", async () => {
    const { server, nextSlowCall } = await startRig({ progressIntervalMs: 50 });
    const { client } = await connect(server);
    const progress: { progress: number; message?: string }[] = [];
    let enough!: () => void;
    const gotThree = new Promise<void>((resolve) => (enough = resolve));
    const pending = client.callTool({ name: "slow_echo", arguments: { text: "long" } }, undefined, {
      onprogress: (p) => {
        progress.push(p);
        if (progress.length === 3) enough();
      },
      resetTimeoutOnProgress: true,
    });
    const slow = await nextSlowCall();
    await gotThree;
    slow.release();
    expect(JSON.parse(textOf(await pending))).toEqual({ text: "long" });
    expect(progress.map((p) => p.progress).slice(0, 3)).toEqual([1, 2, 3]);
    expect(progress[0]?.message).toContain("slow_echo still running");
  });

  it("sends no progress to a client that did not ask for it", async () => {
    const { server, nextSlowCall } = await startRig({ progressIntervalMs: 20 });
    const { client, transport } = await connect(server);
    // Seen as they arrive: the SDK's client swallows a progress notification it did not ask for.
    const notifications: string[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      if ("method" in message) notifications.push(message.method);
      deliver?.(message);
    };
    const pending = client.callTool({ name: "slow_echo", arguments: { text: "quiet" } });
    const slow = await nextSlowCall();
    // Control, started after it on its own connection: a client that asks gets progress. Three of
    // those mean the quiet call has run through as many intervals without sending one.
    const { client: asking } = await connect(server);
    let threeSeen!: () => void;
    const three = new Promise<void>((resolve) => (threeSeen = resolve));
    let count = 0;
    const control = asking.callTool({ name: "slow_echo", arguments: { text: "asked" } }, undefined, {
      onprogress: () => void (++count === 3 && threeSeen()),
      resetTimeoutOnProgress: true,
    });
    const slowControl = await nextSlowCall();
    await three;
    slow.release();
    slowControl.release();
    await Promise.all([pending, control]);
    expect(notifications).not.toContain("notifications/progress");
  });

  it("says clearly that a port is in use", async () => {
    const { server } = await startRig();
    await expect(startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, port: server.port })).rejects.toThrow(
      `port ${server.port} is in use`,
    );
  });
});

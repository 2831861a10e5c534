/**
 * Attack class: resource use through request bodies, and answers that never arrive. A body over
 * the cap must get its answer (413 for MCP, `{}` = no decision for a hook) instead of a connection
 * reset; a request without the token is answered (401) and its connection closed at once, without
 * the server waiting for, or keeping, its body. Real HTTP requests on loopback.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { AGENT_HEADER, type RunningLoopbackServer, startLoopbackServer } from "../../../src/core/server";

const CAP = 64 * 1024;
let server: RunningLoopbackServer;
afterEach(async () => server?.close());

async function start() {
  server = await startLoopbackServer({
    tracker: new ToolCallTracker(),
    registerTools: () => undefined,
    maxBodyBytes: CAP,
    hooks: { handle: async () => ({ continue: true }) } as never,
  });
}

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
  /** The server closed the connection (the client saw it end). */
  closed: boolean;
}

/**
 * POSTs `total` bytes in 16 KB chunks (a client still writing when the answer comes), or, with
 * `stopAfter`, writes only that much and then waits, never finishing its body.
 */
function send(url: string, opts: { total: number; auth?: boolean; chunked?: boolean; stopAfter?: number }): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { closed: false };
    // keep-alive: whether the connection closes is then the server's choice.
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", connection: "keep-alive" };
    if (opts.auth !== false) Object.assign(headers, { authorization: `Bearer ${server.tokenFor("agent-1")}`, [AGENT_HEADER]: "agent-1" });
    if (!opts.chunked) headers["content-length"] = String(opts.total);
    const req = request(url, { method: "POST", headers, agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(outcome);
    }, 3_000);
    req.on("response", (res) => {
      outcome.status = res.statusCode;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => (outcome.body = text));
    });
    req.on("error", (err) => {
      outcome.error = (err as NodeJS.ErrnoException).code ?? err.message;
      clearTimeout(timer);
      resolve(outcome);
    });
    req.on("close", () => {
      outcome.closed = true;
      clearTimeout(timer);
      // The response's end may come in the same tick as close.
      setImmediate(() => resolve(outcome));
    });
    const chunk = Buffer.alloc(16 * 1024, "a");
    let written = 0;
    const limit = opts.stopAfter ?? opts.total;
    const writeMore = () => {
      while (written < limit) {
        const piece = chunk.subarray(0, Math.min(chunk.length, limit - written));
        written += piece.length;
        if (!req.write(piece)) return void req.once("drain", writeMore);
      }
      if (opts.stopAfter === undefined) req.end();
    };
    writeMore();
  });
}

const BIG = 8 * 1024 * 1024;

describe("a body over the cap gets its answer, not a connection reset", () => {
  it("MCP, with a declared length: 413 with a JSON-RPC error", async () => {
    await start();
    const out = await send(server.url, { total: BIG });
    expect(out.error).toBeUndefined();
    expect(out.status).toBe(413);
    expect(JSON.parse(out.body ?? "{}")).toMatchObject({ error: { message: `Request body larger than ${CAP} bytes` } });
  });

  it("MCP, chunked (no length given): 413", async () => {
    await start();
    const out = await send(server.url, { total: BIG, chunked: true });
    expect(out.error).toBeUndefined();
    expect(out.status).toBe(413);
  });

  it("a hook: 200 with {} (no decision), so the CLI prints no 'hook failed'", async () => {
    await start();
    const out = await send(server.hooksUrl, { total: BIG });
    expect(out.error).toBeUndefined();
    expect(out).toMatchObject({ status: 200, body: "{}" });
  });
});

describe("a request without the token", () => {
  for (const [name, total, stopAfter] of [
    ["a body announced but never sent", 1024 * 1024, 1024],
    // A control: this one closed before too.
    ["a small body, fully sent", 1024, undefined],
  ] as const) {
    it(`is answered 401 and its connection closed at once (${name})`, async () => {
      await start();
      const started = Date.now();
      const out = await send(server.hooksUrl, { total, auth: false, stopAfter });
      expect(out.status).toBe(401);
      expect(out.closed).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  }
});

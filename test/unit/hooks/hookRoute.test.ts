/**
 * The `/hooks` route of the embedded server, over real HTTP on 127.0.0.1: what Claude Code's
 * HTTP hooks reach, and what a malformed or foreign request gets.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type HookEndpoint, type HookRequest, type RunningLoopbackServer, startLoopbackServer } from "../../../src/core/server";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { pollUntil } from "../../support/waitFor";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function start(hooks?: HookEndpoint, maxBodyBytes?: number) {
  const logs: string[] = [];
  const server = await startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, hooks, maxBodyBytes, log: (m) => logs.push(m) });
  cleanups.push(() => server.close());
  return { server, logs };
}

interface Reply {
  status: number;
  body: string;
}

function post(url: string, body: string, headers: Record<string, string> = {}, method = "POST"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** What an agent's settings file sends: its own token and its id. */
const agentAuth = (server: RunningLoopbackServer, agentId = "agent-3") => ({ authorization: `Bearer ${server.tokenFor(agentId)}`, "x-arcadia-agent": agentId });

const hookInput = {
  hook_event_name: "PreToolUse",
  session_id: "s-1",
  prompt_id: "p-1",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "toolu_1",
};

describe("the /hooks route", () => {
  it("hands the parsed input and the agent id to the endpoint and answers its JSON", async () => {
    const seen: HookRequest[] = [];
    const { server } = await start((r) => {
      seen.push(r);
      return { continue: true };
    });
    expect(server.hooksUrl).toBe(`http://127.0.0.1:${server.port}/hooks`);
    const reply = await post(server.hooksUrl, JSON.stringify(hookInput), agentAuth(server));
    expect(reply).toEqual({ status: 200, body: '{"continue":true}' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ agentId: "agent-3", input: hookInput });
  });

  it("refuses a missing token or a foreign Host before the endpoint sees anything", async () => {
    let calls = 0;
    const { server } = await start(() => (calls++, {}));
    expect((await post(server.hooksUrl, JSON.stringify(hookInput))).status).toBe(401);
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), { authorization: "Bearer wrong" })).status).toBe(401);
    // A real token without the agent it belongs to, or naming another agent.
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), { authorization: agentAuth(server).authorization })).status).toBe(401);
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), { ...agentAuth(server), "x-arcadia-agent": "agent-4" })).status).toBe(401);
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), { ...agentAuth(server), host: "evil.example" })).status).toBe(403);
    expect(calls).toBe(0);
  });

  it("answers malformed hook requests with a clear 4xx and keeps serving", async () => {
    let calls = 0;
    const { server, logs } = await start(() => (calls++, {}), 1024);
    const auth = agentAuth(server);
    const cases: [string, number, string][] = [
      ["{not json", 400, "Bad hook request: the body is not JSON"],
      ["[1,2]", 400, "Bad hook request: the body is not a JSON object"],
      [JSON.stringify({ session_id: "s" }), 400, "Bad hook request: no hook_event_name (string) in the body"],
      [JSON.stringify({ hook_event_name: "Stop" }), 400, "Bad hook request: no session_id (string) in the body"],
      // Only the events its settings file registers reach a handler (hookEvents.ts).
      [JSON.stringify({ hook_event_name: "Stop", session_id: "s" }), 400, 'Bad hook request: hook_event_name "Stop" is not one Arcadia listens to'],
    ];
    for (const [body, status, message] of cases) {
      const reply = await post(server.hooksUrl, body, auth);
      expect(reply.status, body.slice(0, 40)).toBe(status);
      expect(JSON.parse(reply.body)).toEqual({ error: message });
    }
    // Too big (a huge tool_response): no decision, and no "hook failed" in the user's terminal.
    expect(await post(server.hooksUrl, JSON.stringify({ ...hookInput, big: "x".repeat(2000) }), auth)).toEqual({ status: 200, body: "{}" });
    expect(logs).toContain("Hook input larger than 1024 bytes: answered with no decision");
    const get = await post(server.hooksUrl, "", auth, "GET");
    expect(get.status).toBe(405);
    expect(calls).toBe(0);
    expect(logs.some((l) => l.includes("the body is not JSON"))).toBe(true);
    expect(await post(server.hooksUrl, JSON.stringify(hookInput), auth)).toEqual({ status: 200, body: "{}" });
  });

  it("answers 500 when the endpoint throws, and keeps serving", async () => {
    let fail = true;
    const { server, logs } = await start(() => {
      if (fail) throw new Error("boom");
      return {};
    });
    const auth = agentAuth(server);
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), auth)).status).toBe(500);
    expect(logs.some((l) => l.includes("boom"))).toBe(true);
    fail = false;
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), auth)).status).toBe(200);
  });

  it("aborts the endpoint's signal when the client gives up on the request", async () => {
    let reached: HookRequest | undefined;
    const { server } = await start((r) => {
      reached = r;
      return new Promise<object>(() => undefined);
    });
    const req = httpRequest(server.hooksUrl, { method: "POST", headers: agentAuth(server) });
    req.on("error", () => undefined);
    req.end(JSON.stringify(hookInput));
    const seen = await pollUntil(() => reached, "the request to reach the endpoint", 5000, 5);
    expect(seen.signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => seen.signal.addEventListener("abort", resolve));
    req.destroy();
    await aborted;
    expect(seen.signal.aborted).toBe(true);
  });

  it("an endpoint that first reads the signal after the client gave up finds it aborted", async () => {
    let reached: HookRequest | undefined;
    const { server } = await start((r) => {
      reached = r;
      return new Promise<object>(() => undefined);
    });
    const req = httpRequest(server.hooksUrl, { method: "POST", headers: agentAuth(server) });
    const closed = new Promise((resolve) => req.on("close", resolve));
    req.on("error", () => undefined);
    req.end(JSON.stringify(hookInput));
    const seen = await pollUntil(() => reached, "the request to reach the endpoint", 5000, 5);
    req.destroy();
    await closed;
    await pollUntil(() => (seen.signal.aborted ? true : undefined), "the signal to be aborted", 5000, 5);
    expect(seen.signal.aborted).toBe(true);
  });

  it("is an unknown path (404) on a server started without hooks", async () => {
    const { server } = await start();
    expect((await post(server.hooksUrl, JSON.stringify(hookInput), agentAuth(server))).status).toBe(404);
  });
});

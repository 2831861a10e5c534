/**
 * Attack class: one agent acting as another. Every agent used to hold the one window token and
 * name itself with a plain header, so agent A could post hooks and calls as agent B (B's card
 * would show A's commands, A could answer as B). Now each agent's token is derived from the
 * window secret and its own id, and only that token is believed for that id. Real HTTP on
 * loopback, with the real tools (every command asks) and the permission broker behind /hooks.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { PermissionBroker } from "../../../src/core/hooks/permissionBroker";
import { AGENT_HEADER } from "../../../src/core/server";
import { launchExtrasFor, removeLaunchFiles } from "../../../src/vscode/launch/launchFiles";
import { type ArcadiaServer, startArcadiaServer } from "./support/arcadiaServer";

let arcadia: ArcadiaServer;
let broker: PermissionBroker;
afterEach(async () => {
  broker?.dispose();
  await arcadia?.close();
});

async function start() {
  broker = new PermissionBroker();
  arcadia = await startArcadiaServer({ hooks: broker.handleHook });
}

function post(url: string, headers: Record<string, string>, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const permissionRequest = {
  hook_event_name: "PermissionRequest",
  session_id: "s-1",
  tool_name: "Bash",
  tool_input: { command: "touch pwned" },
  permission_suggestions: [],
};
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "0" } },
};

describe("an agent naming another agent", () => {
  it("is refused (401) with its own token, on /hooks and /mcp; B's prompts and calls stay B's own", async () => {
    await start();
    const { server } = arcadia;
    const asB = { authorization: `Bearer ${server.tokenFor("agent-A")}`, [AGENT_HEADER]: "agent-B" };
    expect(await post(server.hooksUrl, asB, permissionRequest)).toBe(401);
    expect(await post(server.url, asB, initialize)).toBe(401);
    const client = new Client({ name: "A", version: "0" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: asB } }))).rejects.toThrow();
    expect(broker.pending("agent-B")).toEqual([]);
    expect(arcadia.tracker.calls()).toEqual([]);

    // Control: A as itself is served, and what it does is A's.
    const asA = { ...asB, [AGENT_HEADER]: "agent-A" };
    const hook = post(server.hooksUrl, asA, permissionRequest);
    await expect.poll(() => broker.pending().map((p) => p.agentId)).toEqual(["agent-A"]);
    broker.decide(broker.pending()[0]!.id, "deny");
    expect(await hook).toBe(200);
    const a = await arcadia.client("agent-A");
    const asked = arcadia.nextApproval();
    const call = a.callTool({ name: "execute_command", arguments: { command: "true" } });
    expect((await asked).agentId).toBe("agent-A");
    expect(arcadia.tracker.calls().map((c) => c.agentId)).toEqual(["agent-A"]);
    arcadia.approvals.decide(arcadia.approvals.pending()[0]!.id, "deny");
    await call;
  });

  it("cannot use the window secret, a token without its agent, or a made-up token", async () => {
    await start();
    const { server } = arcadia;
    const attempts: Record<string, string>[] = [
      { authorization: `Bearer ${server.windowSecret}`, [AGENT_HEADER]: "agent-B" },
      { authorization: `Bearer ${server.windowSecret}` },
      { authorization: `Bearer ${server.tokenFor("agent-B")}` },
      { authorization: `Bearer ${server.tokenFor("agent-B")}x`, [AGENT_HEADER]: "agent-B" },
      // A header that tries to name two agents at once.
      { authorization: `Bearer ${server.tokenFor("agent-B")}`, [AGENT_HEADER]: "agent-B, agent-A" },
    ];
    for (const headers of attempts) {
      expect(await post(server.hooksUrl, headers, permissionRequest)).toBe(401);
      expect(await post(server.url, headers, initialize)).toBe(401);
    }
    expect(broker.pending()).toEqual([]);
  });

  it("is still refused once both agents have been served (what the server remembers of served agents believes no one else)", async () => {
    await start();
    const { server } = arcadia;
    const as = (token: string, agent: string) => ({ authorization: `Bearer ${token}`, [AGENT_HEADER]: agent });
    const ended = { hook_event_name: "PostCompact", session_id: "s-1" };
    for (const agent of ["agent-A", "agent-B"]) expect(await post(server.hooksUrl, as(server.tokenFor(agent), agent), ended)).toBe(200);
    expect(await post(server.hooksUrl, as(server.tokenFor("agent-A"), "agent-B"), permissionRequest)).toBe(401);
    const tokenB = server.tokenFor("agent-B");
    const sameLength = tokenB.slice(0, -1) + (tokenB.endsWith("A") ? "B" : "A");
    for (const wrong of [`${tokenB}x`, tokenB.slice(0, -1), sameLength, ""])
      expect(await post(server.hooksUrl, as(wrong, "agent-B"), permissionRequest)).toBe(401);
    expect(await post(server.hooksUrl, as(server.windowSecret, "agent-B"), permissionRequest)).toBe(401);
    expect(await post(server.url, as(server.tokenFor("agent-B"), "agent-A"), initialize)).toBe(401);
    expect(broker.pending()).toEqual([]);
    // Control: each as itself is still served.
    for (const agent of ["agent-A", "agent-B"]) expect(await post(server.hooksUrl, as(server.tokenFor(agent), agent), ended)).toBe(200);
  });

  it("cannot reach another agent's MCP session, even knowing its id", async () => {
    await start();
    const { server } = arcadia;
    const transportA = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${server.tokenFor("agent-A")}`, [AGENT_HEADER]: "agent-A" } },
    });
    const a = new Client({ name: "A", version: "0" });
    await a.connect(transportA);
    const sessionOfA = transportA.sessionId as string;
    const asBInAsSession = {
      authorization: `Bearer ${server.tokenFor("agent-B")}`,
      [AGENT_HEADER]: "agent-B",
      "mcp-session-id": sessionOfA,
      "mcp-protocol-version": "2025-06-18",
    };
    expect(await post(server.url, asBInAsSession, { jsonrpc: "2.0", id: 9, method: "tools/list" })).toBe(404);
    // Nor can B cancel A's requests there.
    expect(await post(server.url, asBInAsSession, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } })).toBe(404);
    // Control: A's session still serves A.
    expect((await a.listTools()).tools.length).toBeGreaterThan(0);
    await a.close();
  });
});

describe("launch files", () => {
  it("carry the agent's own token, never the window secret", async () => {
    await start();
    const { server } = arcadia;
    const extras = await launchExtrasFor(async () => server)("agent-A", { cwd: "/w" });
    try {
      const mcpConfig = readFileSync(extras.args[1] as string, "utf8");
      const settings = readFileSync(extras.args[3] as string, "utf8");
      for (const text of [mcpConfig, settings]) {
        expect(text).toContain(`Bearer ${server.tokenFor("agent-A")}`);
        expect(text).toContain('"x-arcadia-agent": "agent-A"');
        expect(text).not.toContain(server.windowSecret);
      }
      // And what they hold works: the hooks of that file are served as agent-A.
      const headers = JSON.parse(settings).hooks.PermissionRequest[0].hooks[0].headers as Record<string, string>;
      const hook = post(server.hooksUrl, headers, permissionRequest);
      await expect.poll(() => broker.pending().map((p) => p.agentId)).toEqual(["agent-A"]);
      broker.decide(broker.pending()[0]!.id, "deny");
      expect(await hook).toBe(200);
    } finally {
      await removeLaunchFiles(extras.paths);
    }
  });

  it("written before a window reload keep working after it (the window secret is kept)", async () => {
    await start();
    const token = arcadia.server.tokenFor("agent-A");
    const { windowSecret, port } = arcadia.server;
    await arcadia.close();
    arcadia = await startArcadiaServer({ hooks: broker.handleHook, windowSecret, port });
    expect(arcadia.server.tokenFor("agent-A")).toBe(token);
    const hook = post(arcadia.server.hooksUrl, { authorization: `Bearer ${token}`, [AGENT_HEADER]: "agent-A" }, permissionRequest);
    await expect.poll(() => broker.pending().length).toBe(1);
    broker.decide(broker.pending()[0]!.id, "deny");
    expect(await hook).toBe(200);
  });
});

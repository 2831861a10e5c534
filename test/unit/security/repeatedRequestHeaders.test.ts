/**
 * Attack class: a request that names two servers or two callers. With two Host headers Node keeps
 * the first and drops the rest, so `Host: 127.0.0.1:<port>` followed by `Host: evil.example`
 * passed the DNS-rebinding check while a proxy or browser in between may have acted on the other
 * one. Host, Origin, Authorization and the agent header must each come once: otherwise 400, the
 * body unread. Raw HTTP on loopback (a client library would merge or refuse the duplicates).
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { AGENT_HEADER, type RunningLoopbackServer, startLoopbackServer } from "../../../src/core/server";

let server: RunningLoopbackServer;
afterEach(async () => server?.close());

async function start(): Promise<void> {
  server = await startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, hooks: async () => ({}) });
}

/** Sends `headers` as written (duplicates kept) with a small hook body; resolves with the status code. */
function rawPost(headers: string[]): Promise<number> {
  const body = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" });
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("error", reject);
    socket.write([`POST /hooks HTTP/1.1`, ...headers, "content-type: application/json", `content-length: ${Buffer.byteLength(body)}`, "", body].join("\r\n"));
  });
}

describe("a header that must come once, twice", () => {
  it("two Host headers, the good one first: 400; one: answered", async () => {
    await start();
    const auth = [`authorization: Bearer ${server.tokenFor("agent-1")}`, `${AGENT_HEADER}: agent-1`];
    expect(await rawPost([`host: 127.0.0.1:${server.port}`, ...auth])).toBe(200);
    expect(await rawPost([`host: 127.0.0.1:${server.port}`, "host: evil.example", ...auth])).toBe(400);
    expect(await rawPost([`host: 127.0.0.1:${server.port}`, `host: 127.0.0.1:${server.port}`, ...auth])).toBe(400);
  });

  it("two Authorization, Origin or agent headers: 400", async () => {
    await start();
    const host = `host: 127.0.0.1:${server.port}`;
    const good = `authorization: Bearer ${server.tokenFor("agent-1")}`;
    expect(await rawPost([host, good, `authorization: Bearer ${server.tokenFor("agent-2")}`, `${AGENT_HEADER}: agent-1`])).toBe(400);
    expect(await rawPost([host, good, `${AGENT_HEADER}: agent-1`, `${AGENT_HEADER}: agent-2`])).toBe(400);
    expect(await rawPost([host, good, `${AGENT_HEADER}: agent-1`, `origin: http://127.0.0.1:${server.port}`, "origin: http://evil.example"])).toBe(400);
  });
});

/**
 * A long-lived window sees thousands of MCP calls cancelled by their client. Nothing may pile up
 * per cancel: not on the server (responses, tracked calls), not in the SDK client the tests and
 * the bench use (the listeners on its transport's signal: test/support/mcpClient.ts).
 */
import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import type { ToolResult } from "../../../src/core/mcp/toolResult";
import { AGENT_HEADER, startLoopbackServer } from "../../../src/core/server";
import { clientTransport, transportSignal } from "../../support/mcpClient";
import { pollUntil } from "../../support/waitFor";

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => void process.off("warning", onWarning));

describe("client-cancelled MCP calls", () => {
  it("1,000 of them leave no listener, response or call behind, and no MaxListenersExceeded warning", { timeout: 60_000 }, async () => {
    process.on("warning", onWarning);
    const tracker = new ToolCallTracker();
    const server = await startLoopbackServer({
      tracker,
      registerTools: (addTool) =>
        addTool({
          name: "hang",
          description: "Never answers on its own.",
          inputSchema: { n: z.number() },
          display: (a) => String(a.n),
          handler: () => new Promise<ToolResult>(() => undefined),
        }),
    });
    const transport = clientTransport(server.url, { authorization: `Bearer ${server.tokenFor("a")}`, [AGENT_HEADER]: "a" });
    const client = new Client({ name: "cancels", version: "1.0.0" });
    await client.connect(transport);
    try {
      for (let i = 0; i < 1000; i++) {
        const abort = new AbortController();
        const began = new Promise<void>((resolve) => {
          const sub = tracker.onDidChange((c) => c.type === "started" && (sub.dispose(), resolve()));
        });
        const result = client.callTool({ name: "hang", arguments: { n: i } }, undefined, { signal: abort.signal });
        await began;
        abort.abort("test");
        await result.catch(() => undefined);
      }
      await pollUntil(() => server.openPostResponses() === 0 && tracker.calls().length === 0, "every cancelled call to end", 5000);
      const signal = transportSignal(transport);
      expect(signal).toBeDefined();
      // The GET stream's request and whatever is in flight: a handful, not one per call.
      expect(getEventListeners(signal as AbortSignal, "abort").length).toBeLessThanOrEqual(4);
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message)).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/**
 * The MCP tool-call tracker's cost and the force-finish path, printed beside their targets:
 * - overhead per call of a tracked handler over the bare one (p50/p99);
 * - Cancel in the tracker → the real SDK client's result over loopback HTTP (p50/p99);
 * - 1,000 concurrent tracked calls force-finished: how long, and how many are left (must be 0).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { startMcpServer } from "../src/core/mcp/server";
import { ToolCallTracker } from "../src/core/mcp/toolCallTracker";
import { percentile } from "./percentile";
import { jsonResult, type ToolResult } from "../src/core/mcp/toolResult";

export type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

const never = () => new Promise<ToolResult>(() => undefined);

async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  return samples.sort((a, b) => a - b);
}

async function trackerOverhead(row: Row): Promise<void> {
  const tracker = new ToolCallTracker();
  tracker.onChange(() => undefined); // the panel listens: its cost is part of the overhead
  const bare = async (args: { path: string }) => jsonResult({ text: args.path });
  const wrapped = tracker.wrapHandler("read_file", bare, (a) => a.path);
  const n = 20_000;
  await timeEach(2000, () => bare({ path: "a.ts" })); // warm the JIT
  await timeEach(2000, () => wrapped({ path: "a.ts" }, { _meta: { "claudecode/toolUseId": "toolu_x" } }));
  const bareUs = await timeEach(n, () => bare({ path: "a.ts" }));
  const wrappedUs = await timeEach(n, () => wrapped({ path: "a.ts" }, { _meta: { "claudecode/toolUseId": "toolu_x" } }));
  const p50 = percentile(wrappedUs, 50) - percentile(bareUs, 50);
  const p99 = percentile(wrappedUs, 99) - percentile(bareUs, 99);
  row("tracker overhead per call p50", `${p50.toFixed(1)} µs`, "≤ 100 µs (proposed)", p50 <= 100);
  row("tracker overhead per call p99", `${p99.toFixed(1)} µs`, "≤ 1 ms (proposed)", p99 <= 1000);
  console.log(`${"  (wrapped / bare handler p50)".padEnd(44)} ${`${percentile(wrappedUs, 50).toFixed(1)} / ${percentile(bareUs, 50).toFixed(1)} µs`.padStart(14)}`);
}

async function cancelToClient(row: Row): Promise<void> {
  const tracker = new ToolCallTracker();
  const server = await startMcpServer({
    tracker,
    registerTools: (addTool) =>
      addTool({ name: "hang", description: "Never answers on its own.", inputSchema: { n: z.number() }, display: (a) => String(a.n), handler: never }),
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  const samples: number[] = [];
  try {
    for (let i = 0; i < 220; i++) {
      const started = new Promise<string>((resolve) => {
        const off = tracker.onChange((c) => {
          if (c.type === "started") {
            off();
            resolve(c.call.id);
          }
        });
      });
      const result = client.callTool({ name: "hang", arguments: { n: i } });
      const id = await started;
      const t0 = performance.now();
      tracker.cancelCall(id);
      await result;
      if (i >= 20) samples.push(performance.now() - t0); // the first ones warm up the JIT and the socket
    }
  } finally {
    await client.close();
    await server.close();
  }
  samples.sort((a, b) => a - b);
  row("Cancel → client's result (HTTP) p50", `${percentile(samples, 50).toFixed(2)} ms`, "≤ 50 ms", percentile(samples, 50) <= 50);
  row("Cancel → client's result (HTTP) p99", `${percentile(samples, 99).toFixed(2)} ms`, "≤ 50 ms", percentile(samples, 99) <= 50);
}

async function thousandForceFinished(row: Row): Promise<void> {
  const tracker = new ToolCallTracker();
  const command = tracker.wrapHandler("execute_command", (_a: object, ctx) => (ctx.linkTerminal(`t-${ctx.callId}`), never()), () => "sleep forever");
  const read = tracker.wrapHandler("read_file", (_a: object) => never(), () => "a.ts");
  const results = Array.from({ length: 1000 }, (_, i) => (i % 2 ? command({}) : read({})));
  await new Promise((r) => setImmediate(r)); // handlers start (and link) on the next tick
  const inFlight = tracker.calls().length;
  const start = performance.now();
  tracker.calls().forEach((call, i) => (i % 2 ? tracker.completeCall(call.id) : tracker.cancelCall(call.id)));
  await Promise.all(results);
  const ms = performance.now() - start;
  const left = tracker.calls().length;
  row(`1,000 concurrent calls force-finished`, `${ms.toFixed(1)} ms`, "(all answered)", undefined);
  row(`  calls left in the tracker (of ${inFlight})`, `${left}`, "0", left === 0);
}

export async function mcpBenchmarks(row: Row): Promise<void> {
  await trackerOverhead(row);
  await cancelToClient(row);
  await thousandForceFinished(row);
}

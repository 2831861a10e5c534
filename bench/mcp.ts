/**
 * The MCP tool-call tracker's cost and the force-finish path, printed beside their targets:
 * - overhead per call of a tracked handler over the bare one (p50/p99);
 * - Cancel in the tracker → the real SDK client's result over loopback HTTP (p50/p99);
 * - 1,000 concurrent tracked calls force-finished: how long, and how many are left (must be 0);
 * - 1,000 calls cancelled by the real SDK client: how long, and what the server still holds after
 *   (responses, sockets, fds: must not grow with the number of cancels).
 */
import { readdirSync } from "node:fs";
import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { AGENT_HEADER, startLoopbackServer } from "../src/core/server";
import { ToolCallTracker } from "../src/core/mcp/toolCallTracker";
import { percentile } from "./percentile";
import { jsonResult, type ToolResult } from "../src/core/mcp/toolResult";
import { completeWithOutputSoFar } from "../src/core/toolDeclarations";
import { clientTransport, transportSignal } from "../test/support/mcpClient";
import { pollUntil } from "../test/support/waitFor";

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
  tracker.onDidChange(() => undefined); // the panel listens: its cost is part of the overhead
  const bare = async (args: { path: string }) => jsonResult({ text: args.path });
  const wrapped = tracker.wrapHandler({ name: "read_file", handler: bare, display: (a) => a.path });
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

/** The server with one tool that never answers on its own, and a real SDK client of agent "bench". */
async function hangingServerAndClient() {
  const tracker = new ToolCallTracker();
  const server = await startLoopbackServer({
    tracker,
    registerTools: (addTool) =>
      addTool({ name: "hang", description: "Never answers on its own.", inputSchema: { n: z.number() }, display: (a) => String(a.n), handler: never }),
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  // A signal per request (test/support/mcpClient.ts): the SDK's one shared signal collected an
  // abort listener per request, 2,003 after 1,000 cancels, and 135–500 MaxListenersExceeded warnings.
  const transport = clientTransport(server.url, { authorization: `Bearer ${server.tokenFor("bench")}`, [AGENT_HEADER]: "bench" });
  await client.connect(transport);
  return { tracker, server, client, transport };
}

async function cancelToClient(row: Row): Promise<void> {
  const { tracker, server, client } = await hangingServerAndClient();
  const samples: number[] = [];
  try {
    for (let i = 0; i < 220; i++) {
      const started = new Promise<string>((resolve) => {
        const sub = tracker.onDidChange((c) => {
          if (c.type === "started") {
            sub.dispose();
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
  const command = tracker.wrapHandler({ name: "execute_command", handler: (_a: object, ctx) => (ctx.linkTerminal(`t-${ctx.callId}`), never()), display: () => "sleep forever", complete: completeWithOutputSoFar });
  const read = tracker.wrapHandler({ name: "read_file", handler: (_a: object) => never(), display: () => "a.ts" });
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

/** Open file descriptors of this process (Linux); undefined where /proc is not there. */
function openFds(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}

/** Waits up to `ms` for `check`; past that the rows below report what is left, against its target. */
async function waitFor(check: () => boolean, ms: number): Promise<void> {
  await pollUntil(check, "the check", ms, 20).catch(() => undefined);
}

async function thousandClientCancelled(row: Row): Promise<void> {
  const { tracker, server, client, transport } = await hangingServerAndClient();
  const fdsBefore = openFds();
  const started = performance.now();
  for (let i = 0; i < 1000; i++) {
    const abort = new AbortController();
    const began = new Promise<void>((resolve) => {
      const sub = tracker.onDidChange((c) => c.type === "started" && (sub.dispose(), resolve()));
    });
    const result = client.callTool({ name: "hang", arguments: { n: i } }, undefined, { signal: abort.signal });
    await began;
    abort.abort("bench");
    await result.catch(() => undefined);
  }
  await waitFor(() => server.openPostResponses() === 0 && tracker.calls().length === 0, 5_000);
  const ms = performance.now() - started;
  const responses = server.openPostResponses();
  const connections = server.openConnections();
  const fdsAfter = openFds();
  const signal = transportSignal(transport);
  const listeners = signal ? getEventListeners(signal, "abort").length : 0;
  await client.close();
  // Idle keep-alive connections close after Node's 5 s keepAliveTimeout.
  await waitFor(() => server.openConnections() === 0, 7_000);
  const afterClose = server.openConnections();
  const fdsAfterClose = openFds();
  await server.close();
  row("1,000 client-cancelled calls", `${ms.toFixed(0)} ms`, "(sequential, real SDK client)", undefined);
  row("  responses still open after", `${responses}`, "0", responses === 0);
  row("  calls left in the tracker", `${tracker.calls().length}`, "0", tracker.calls().length === 0);
  row("  abort listeners on the client's signal", `${listeners}`, "≤ 4 (not one per request)", listeners <= 4);
  // The client's GET stream plus its pool of keep-alive connections (a cancel goes out on a second
  // one while the call's is busy): a handful, whatever the number of cancels.
  row("  server sockets open (client connected)", `${connections}`, "≤ 16 (not one per call)", connections <= 16);
  row("  server sockets open after the client closed", `${afterClose}`, "0", afterClose === 0);
  if (fdsBefore !== undefined && fdsAfter !== undefined && fdsAfterClose !== undefined) {
    // Client and server share this process: each pooled connection is two fds.
    row("  open fds before → after → client closed", `${fdsBefore} → ${fdsAfter} → ${fdsAfterClose}`, "≤ +32, then back", fdsAfter - fdsBefore <= 32 && fdsAfterClose <= fdsBefore);
  }
}

export async function mcpBenchmarks(row: Row): Promise<void> {
  await trackerOverhead(row);
  await cancelToClient(row);
  await thousandForceFinished(row);
  await thousandClientCancelled(row);
}

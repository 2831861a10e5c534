// A tiny stdio MCP server built on the real @modelcontextprotocol/sdk, for scenarios that need
// MCP tools: `echo` answers at once, `slow_echo` after `delayMs` (default 2000). It appends one
// JSON line per request to $ARCADIA_MCP_LOG (if set) so a test can tell when the CLI has listed
// the tools, i.e. when it is safe to let the model call them.
import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const log = (entry: Record<string, unknown>) => {
  const file = process.env.ARCADIA_MCP_LOG;
  if (file) appendFileSync(file, JSON.stringify({ time: new Date().toISOString(), ...entry }) + "\n");
};

const server = new Server({ name: "arcadia-echo", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => {
  log({ method: "tools/list" });
  return {
    tools: [
      {
        name: "echo",
        description: "Returns its text argument unchanged.",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
      {
        name: "slow_echo",
        description: "Returns its text argument after delayMs milliseconds.",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" }, delayMs: { type: "number" } },
          required: ["text"],
        },
      },
    ],
  };
});

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = (request.params.arguments ?? {}) as { text?: unknown; delayMs?: unknown };
  const text = String(args.text ?? "");
  log({ method: "tools/call", tool: request.params.name, text, toolUseId: request.params._meta?.["claudecode/toolUseId"] });
  if (request.params.name === "slow_echo") {
    const delay = typeof args.delayMs === "number" ? args.delayMs : 2000;
    // Honour cancellation (Escape in the CLI sends notifications/cancelled).
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, delay);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      });
    });
    if (extra.signal.aborted) log({ method: "cancelled", tool: request.params.name, text });
  } else if (request.params.name !== "echo") {
    return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
  }
  return { content: [{ type: "text", text: `echo: ${text}` }] };
});

server.connect(new StdioServerTransport()).catch((err: unknown) => {
  process.stderr.write(`mcp-echo-server failed: ${String(err)}\n`);
  process.exit(1);
});

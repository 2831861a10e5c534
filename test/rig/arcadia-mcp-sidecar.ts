// Arcadia's embedded MCP server run beside the real CLI in its namespace (a rig "sidecar"), with
// a test tool, writing the --mcp-config the CLI gets and logging every tracker change.
//   tsx test/rig/arcadia-mcp-sidecar.ts --dir <folder> --agent <id>
// Writes <dir>/mcp-config.json (also the ready file: the CLI starts once it exists) and appends
// tracker changes to <dir>/tracker.jsonl.
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { mcpConfig } from "../../src/core/mcp/mcpConfigFile";
import { startMcpServer } from "../../src/core/mcp/server";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../src/core/mcp/toolResult";

function arg(name: string): string {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  if (!value) throw new Error(`usage: arcadia-mcp-sidecar --dir <folder> --agent <id> (missing ${name})`);
  return value;
}

async function main(dir: string, agentId: string): Promise<void> {
  const noLinks = { cancelApproval() {}, rejectDiff() {}, acceptDiff() {}, interruptTerminal() {}, partialOutput: () => ({ output: "", captured: false }) };
  const tracker = new ToolCallTracker(noLinks);
  tracker.onChange((change) => appendFileSync(join(dir, "tracker.jsonl"), `${JSON.stringify(change)}\n`));
  const server = await startMcpServer({
    tracker,
    registerTools: (addTool) =>
      addTool({
        name: "echo",
        description: "Echoes its text.",
        inputSchema: { text: z.string() },
        display: (args: { text: string }) => args.text,
        handler: async (args: { text: string }) => jsonResult({ echoed: args.text }),
      }),
  });
  // The same content Arcadia writes for an agent (writeMcpConfigFile), at a path the test knows.
  writeFileSync(join(dir, "mcp-config.json"), JSON.stringify(mcpConfig(server.url, server.token, agentId)), { mode: 0o600 });
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main(arg("--dir"), arg("--agent")).catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * The `--mcp-config` file an agent Arcadia launches gets: Arcadia's embedded server, with the
 * agent's own token (core/server/auth.ts) and its id in headers. Written with mode 0600 (it holds the token) into
 * a private folder, and removed when the agent goes. The user's own Claude config is never touched.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentHeaders } from "./auth";
import { ARCADIA_MCP_SERVER_NAME } from "../toolDeclarations";

export interface McpConfigFile {
  path: string;
  remove(): Promise<void>;
}

/** `token`: the agent's own (RunningLoopbackServer.tokenFor), not the window secret. */
export function mcpConfig(url: string, token: string, agentId: string): object {
  return {
    mcpServers: {
      [ARCADIA_MCP_SERVER_NAME]: {
        type: "http",
        url,
        headers: agentHeaders(token, agentId),
      },
    },
  };
}

export async function writeMcpConfigFile(url: string, token: string, agentId: string, parent = tmpdir()): Promise<McpConfigFile> {
  // A folder of our own (mode 0700 from mkdtemp) so no other user can even list the file.
  const dir = await mkdtemp(join(parent, "arcadia-mcp-"));
  const path = join(dir, "mcp-config.json");
  await writeFile(path, `${JSON.stringify(mcpConfig(url, token, agentId), null, 2)}\n`, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

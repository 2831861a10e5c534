/**
 * The files a launched agent gets on its command line: `--mcp-config` (Arcadia's MCP server) and
 * `--settings` (hooks that relay Claude Code's permission prompts to the panel). Both hold the
 * window's token: mode 0600 in private folders, removed when the agent goes. The user's own
 * Claude settings are never touched.
 */
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import type { LaunchExtras } from "../agents/ports";
import { writeMcpConfigFile } from "../core/mcp/mcpConfigFile";

export interface ServerAddress {
  url: string;
  token: string;
}

export interface HookSettingsWriter {
  (agentId: string): Promise<{ path: string }>;
}

export function launchExtrasFor(server: () => Promise<ServerAddress | undefined>, writeHookSettings?: HookSettingsWriter): (agentId: string) => Promise<LaunchExtras> {
  return async (agentId) => {
    const address = await server();
    if (!address) return { args: [], paths: [] };
    const mcp = await writeMcpConfigFile(address.url, address.token, agentId);
    const args = ["--mcp-config", mcp.path];
    const paths = [dirname(mcp.path)];
    if (writeHookSettings) {
      const settings = await writeHookSettings(agentId);
      args.push("--settings", settings.path);
      paths.push(dirname(settings.path));
    }
    return { args, paths };
  };
}

/** Removes launch-file folders, and only ours: a path outside the temp folder or not named arcadia-* is left alone. */
export async function removeLaunchFiles(paths: readonly string[]): Promise<void> {
  const tmp = tmpdir();
  await Promise.all(
    paths.filter((p) => dirname(p) === tmp && basename(p).startsWith("arcadia-")).map((p) => rm(p, { recursive: true, force: true })),
  );
}

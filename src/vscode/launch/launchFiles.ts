/**
 * The files a launched agent gets on its command line: `--mcp-config` (Arcadia's MCP server) and
 * `--settings` (hooks that relay Claude Code's permission prompts to the panel, and Claude Code's
 * own sandbox for the agent's shell commands when it runs sandboxed). Both hold the
 * agent's own token (never the window secret it is derived from): mode 0600 in private folders,
 * removed when the agent goes. The user's own Claude settings are never touched.
 */
import { rm } from "node:fs/promises";
import which from "which";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import type { LaunchExtras, LaunchPlace } from "../../agents/ports";
import type { AgentSandboxOutcome } from "../agentSandbox/agentSandboxLaunch";
import { writeHookSettingsFile } from "../../core/hooks";
import { writeMcpConfigFile } from "../../core/server";

export interface ServerAddress {
  url: string;
  hooksUrl: string;
  /** The agent's own bearer token. */
  tokenFor(agentId: string): string;
}

/** A launch's sandbox (agentSandboxLaunch.ts): its CLI settings, why it is missing, or undefined (off). */
export type SandboxFor = (place: LaunchPlace) => Promise<AgentSandboxOutcome>;

/** No server (it could not start): the agent starts without Arcadia's tools and prompts, and unsandboxed (its commands ask). */
export function launchExtrasFor(
  server: () => Promise<ServerAddress | undefined>,
  sandboxFor?: SandboxFor,
): (agentId: string, place: LaunchPlace) => Promise<LaunchExtras> {
  return async (agentId, place) => {
    const address = await server();
    if (!address) return { args: [], paths: [] };
    const outcome = await sandboxFor?.(place);
    const sandbox = outcome && "settings" in outcome ? outcome.settings : undefined;
    const token = address.tokenFor(agentId);
    const mcp = await writeMcpConfigFile(address.url, token, agentId);
    try {
      // curl (and sh, for PreToolUse) make the hooks quiet (hookSettingsFile.ts); without them they are http.
      const find = async (name: string) => (await which(name, { nothrow: true, path: process.env.PATH })) ?? undefined;
      const [curl, sh] = await Promise.all([find("curl"), find("sh")]);
      const settings = await writeHookSettingsFile(address.hooksUrl, token, agentId, undefined, curl, sh, sandbox);
      return {
        args: ["--mcp-config", mcp.path, "--settings", settings.path],
        paths: [dirname(mcp.path), dirname(settings.path)],
        ...(sandbox ? { sandboxed: true } : {}),
        ...(outcome && "missing" in outcome ? { sandboxMissing: outcome.missing } : {}),
      };
    } catch (err) {
      await mcp.remove();
      throw err;
    }
  };
}

/** Removes launch-file folders, and only ours: a path outside the temp folder or not named arcadia-* is left alone. */
export async function removeLaunchFiles(paths: readonly string[]): Promise<void> {
  const tmp = tmpdir();
  await Promise.all(paths.filter((p) => dirname(p) === tmp && basename(p).startsWith("arcadia-")).map((p) => rm(p, { recursive: true, force: true })));
}

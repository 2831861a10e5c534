/**
 * The `--settings` file an agent Arcadia launches gets: HTTP hooks that POST to Arcadia's server
 * (`/hooks`), with the window's token and the agent's id in headers. `--settings` adds these hooks
 * for that one process, beside the user's own hooks; the user's settings files are never written.
 * Mode 0600 (it holds the token) in a private folder, removed when the agent goes.
 *
 * Checked with CLI 2.1.330: `type: "http"` hooks send `headers` as given; a `timeout` (seconds)
 * ends a hook the CLI then treats as "no decision"; loopback URLs are allowed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARCADIA_MCP_SERVER_NAME } from "../mcp/mcpConfigFile";
import { AGENT_HEADER } from "../mcp/server/toolRegistrar";

/**
 * The events Arcadia listens to, with each hook's timeout in seconds.
 * - PreToolUse: the tool_use id of every call (the PermissionRequest that may follow has none).
 *   Answered at once; short, because the tool waits for it.
 * - PermissionRequest: answered when the user decides in the panel. The terminal shows its own
 *   prompt meanwhile, so waiting long costs nothing; when the timeout ends it, the panel's
 *   buttons go (the broker answers "no decision" a little before) and the terminal still works.
 * - PostToolUse / PostToolUseFailure: the call ran, so a prompt answered in the terminal is over
 *   (answering "Yes" there does not end the pending hook request).
 */
export const HOOK_TIMEOUTS_S = {
  PreToolUse: 10,
  PermissionRequest: 3600,
  PostToolUse: 10,
  PostToolUseFailure: 10,
} as const;

export interface HookSettingsFile {
  path: string;
  remove(): Promise<void>;
}

export function hookSettings(hooksUrl: string, token: string, agentId: string): object {
  const headers = { Authorization: `Bearer ${token}`, [AGENT_HEADER]: agentId };
  const hooks: Record<string, object[]> = {};
  for (const [event, timeout] of Object.entries(HOOK_TIMEOUTS_S)) {
    hooks[event] = [{ hooks: [{ type: "http", url: hooksUrl, headers, timeout }] }];
  }
  // Arcadia's own tools ask on the card where it matters (commands by arcadia.mcp.commandApproval,
  // paths outside the workspace, writes by their diff): the CLI need not ask a second time.
  return { hooks, permissions: { allow: [`mcp__${ARCADIA_MCP_SERVER_NAME}`] } };
}

export async function writeHookSettingsFile(hooksUrl: string, token: string, agentId: string, parent = tmpdir()): Promise<HookSettingsFile> {
  // A folder of our own (mode 0700 from mkdtemp) so no other user can even list the file.
  const dir = await mkdtemp(join(parent, "arcadia-hooks-"));
  const path = join(dir, "settings.json");
  await writeFile(path, `${JSON.stringify(hookSettings(hooksUrl, token, agentId), null, 2)}\n`, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The `--settings` file an agent Arcadia launches gets: HTTP hooks that POST to Arcadia's server
 * (`/hooks`), with the agent's own token (core/server/auth.ts) and its id in headers. `--settings` adds these hooks
 * for that one process, beside the user's own hooks; the user's settings files are never written.
 * Mode 0600 (it holds the token) in a private folder, removed when the agent goes.
 *
 * Checked with CLI 2.1.330: `type: "http"` hooks send `headers` as given; a `timeout` (seconds)
 * ends a hook the CLI then treats as "no decision"; loopback URLs are allowed.
 *
 * Hooks that only tell run as **quiet** hooks where `curl` exists: an async command hook in exec
 * form (no shell) that POSTs its input with curl. When Arcadia cannot be reached (the window
 * reloading), an http hook prints "PostToolUse:Bash hook failed" under the tool in the user's
 * terminal, while an async command hook prints nothing, whatever its exit code, and never holds the
 * tool up (test/integration/hookFailuresRealCli.test.ts). The token goes in a headers file
 * (`-H @file`, 0600), never on curl's command line, which other users can list.
 * Two stay http: PermissionRequest (its answer is the decision: the CLI waits for it) and
 * PreToolUse (the row of a tool that just started: through curl it came ~150 ms later, 350 ms at
 * p99 on a loaded 2-core machine, against ~0 ms for http; the price is one "PreToolUse hook failed"
 * line if a tool *starts* in the seconds a window reloads, while tools *ending* then, the usual
 * case for a long tool, stay quiet).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { devNull, tmpdir } from "node:os";
import { join } from "node:path";
import { agentHeaders } from "../server/auth";
import { ARCADIA_MCP_SERVER_NAME } from "../server/serverName";

/**
 * The events Arcadia listens to, with each hook's timeout in seconds.
 * - PreToolUse: the tool_use id of every call (the PermissionRequest that may follow has none).
 *   Answered at once; short, because the tool waits for it.
 * - PermissionRequest: answered when the user decides in the panel. The terminal shows its own
 *   prompt meanwhile, so waiting long costs nothing; when the timeout ends it, the panel's
 *   buttons go (the broker answers "no decision" a little before) and the terminal still works.
 * - PostToolUse / PostToolUseFailure: the call ran, so a prompt answered in the terminal is over
 *   (answering "Yes" there does not end the pending hook request); and its row ends on the card.
 * - PreToolUse also puts the call's row on the card at once (hookToolFeed.ts): the transcript
 *   gets it seconds later.
 * - PermissionDenied: a call denied by a rule or the auto-mode classifier: its row says so.
 * - PreCompact / PostCompact: the card says "Compacting…" in between.
 */
export const HOOK_TIMEOUTS_S = {
  PreToolUse: 10,
  PermissionRequest: 3600,
  PostToolUse: 10,
  PostToolUseFailure: 10,
  PermissionDenied: 10,
  PreCompact: 10,
  PostCompact: 10,
} as const;

export interface HookSettingsFile {
  path: string;
  remove(): Promise<void>;
}

/** The events kept http: an answer the CLI waits for, or a row that must show at once. */
const HTTP_ONLY = new Set<string>(["PermissionRequest", "PreToolUse"]);

/** curl, and the file with the agent's headers (one `Name: value` per line, mode 0600). */
export interface QuietHooks {
  curl: string;
  headersFile: string;
}

/** The async command hook that POSTs the hook input (stdin) to Arcadia with curl, quietly. */
function quietHook(hooksUrl: string, quiet: QuietHooks, timeout: number): object {
  const args = ["-s", "-o", devNull, "-m", String(timeout), "--noproxy", "*", "-H", "Content-Type: application/json", "-H", `@${quiet.headersFile}`, "--data-binary", "@-", hooksUrl];
  return { type: "command", command: quiet.curl, args, async: true, timeout };
}

/**
 * `token`: the agent's own (RunningLoopbackServer.tokenFor), not the window secret. With `quiet`,
 * the hooks that only tell run through curl (see the top of this file); without, all are http.
 */
export function hookSettings(hooksUrl: string, token: string, agentId: string, quiet?: QuietHooks): object {
  const headers = agentHeaders(token, agentId);
  const hooks: Record<string, object[]> = {};
  for (const [event, timeout] of Object.entries(HOOK_TIMEOUTS_S)) {
    const hook = quiet && !HTTP_ONLY.has(event) ? quietHook(hooksUrl, quiet, timeout) : { type: "http", url: hooksUrl, headers, timeout };
    hooks[event] = [{ hooks: [hook] }];
  }
  // Arcadia's own tools ask on the card where it matters (commands by arcadia.mcp.commandApproval,
  // paths outside the workspace, writes by their diff): the CLI need not ask a second time.
  return { hooks, permissions: { allow: [`mcp__${ARCADIA_MCP_SERVER_NAME}`] } };
}

/** `curl`: its path where it exists (quiet hooks), else undefined (http hooks only). */
export async function writeHookSettingsFile(hooksUrl: string, token: string, agentId: string, parent = tmpdir(), curl?: string): Promise<HookSettingsFile> {
  // A folder of our own (mode 0700 from mkdtemp) so no other user can even list the files.
  const dir = await mkdtemp(join(parent, "arcadia-hooks-"));
  const path = join(dir, "settings.json");
  let quiet: QuietHooks | undefined;
  if (curl) {
    quiet = { curl, headersFile: join(dir, "headers.txt") };
    const lines = Object.entries(agentHeaders(token, agentId)).map(([name, value]) => `${name}: ${value}`);
    await writeFile(quiet.headersFile, `${lines.join("\n")}\n`, { mode: 0o600 });
  }
  await writeFile(path, `${JSON.stringify(hookSettings(hooksUrl, token, agentId, quiet), null, 2)}\n`, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

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
 * PermissionRequest stays http: its answer is the decision, and the CLI waits for it.
 * PreToolUse puts a tool's row on the card: through an async hook it came ~150 ms late (350 ms at
 * p99 on a loaded 2-core machine), so where `sh` exists it is a **synchronous** quiet hook,
 * `sh -c '"$@" 2>/dev/null; exit 0' arcadia-hook curl -f …`: it arrives before the tool runs
 * (the tool waits for it, a curl start, ~10–30 ms), its answer (a 2xx body) reaches the CLI on
 * stdout, it prints nothing when Arcadia is gone (exit 0, no output), and its fixed script takes
 * curl's argv as positional parameters (nothing is quoted into it). Without `sh` (Windows)
 * PreToolUse stays http.
 *
 * `sandbox`: Claude Code's own sandbox for the agent's Bash tool, when the agent runs sandboxed
 * (core/agentSandbox: made there, written here as the file's `sandbox` key, nothing added to it).
 * With the sandbox on, CLI 2.1.332 sends **http** hooks through the sandbox's network proxy, which
 * refuses loopback: Arcadia's PermissionRequest never arrived (test/integration/
 * agentSandboxPromptRealCli.test.ts). So a sandboxed agent's hook that waits for the user is a
 * synchronous silent curl as well (`--noproxy '*'`, run by the CLI itself, not in the sandbox): its
 * 2xx body is the decision on stdout, and nothing (no decision: the terminal asks) when Arcadia is gone.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { devNull, tmpdir } from "node:os";
import { join } from "node:path";
import { agentHeaders, HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventName } from "../server";
import { ARCADIA_MCP_SERVER_NAME } from "../toolDeclarations";

/** Each event's timeout in seconds (hookEvents.ts: the one list of the events and why each). */
export const HOOK_TIMEOUTS_S = Object.fromEntries(Object.entries(HOOK_EVENTS).map(([event, spec]) => [event, spec.timeoutS])) as {
  [E in HookEventName]: (typeof HOOK_EVENTS)[E]["timeoutS"];
};

export interface HookSettingsFile {
  path: string;
  remove(): Promise<void>;
}

/** curl (and sh where it exists), and the file with the agent's headers (one `Name: value` per line, mode 0600). */
export interface QuietHooks {
  curl: string;
  sh?: string;
  headersFile: string;
}

/** curl's argv that POSTs the hook input (stdin) to Arcadia, giving up after `seconds`; the answer thrown away, or printed (`-f`: only a 2xx one). */
function curlArgs(hooksUrl: string, quiet: QuietHooks, seconds: number, answer: "discard" | "print"): string[] {
  const output = answer === "discard" ? ["-o", devNull] : ["-f"];
  return [
    "-s",
    ...output,
    "-m",
    String(seconds),
    "--noproxy",
    "*",
    "-H",
    "Content-Type: application/json",
    "-H",
    `@${quiet.headersFile}`,
    "--data-binary",
    "@-",
    hooksUrl,
  ];
}

/**
 * Runs "$@" (curl and its argv): its stdout (Arcadia's answer, e.g. the collision guard's "ask")
 * goes to the CLI, its errors nowhere, and it always exits 0: unreachable, the CLI reads no
 * output and no error, so it says nothing.
 */
const SILENT_SCRIPT = '"$@" 2>/dev/null; exit 0';

/**
 * The hook for one event, by how it is delivered (hookEvents.ts): one that waits for the user is
 * http; one whose answer counts is a synchronous silent curl (with sh), else http; one that only
 * tells is an async curl, else http.
 */
function hookFor(event: HookEventName, hooksUrl: string, headers: Record<string, string>, quiet?: QuietHooks, sandboxed = false): object {
  const { timeoutS: timeout, delivery } = HOOK_EVENTS[event];
  const throughCurl = delivery === "answers" || (delivery === "waits" && sandboxed);
  if (!quiet || (delivery === "waits" && !sandboxed) || (throughCurl && !quiet.sh)) return { type: "http", url: hooksUrl, headers, timeout };
  if (throughCurl && quiet.sh) {
    // curl gives up a second before the CLI would end the hook, so the CLI never reports a timeout.
    const args = ["-c", SILENT_SCRIPT, "arcadia-hook", quiet.curl, ...curlArgs(hooksUrl, quiet, Math.max(1, timeout - 1), "print")];
    return { type: "command", command: quiet.sh, args, timeout };
  }
  return { type: "command", command: quiet.curl, args: curlArgs(hooksUrl, quiet, timeout, "discard"), async: true, timeout };
}

/**
 * `token`: the agent's own (RunningLoopbackServer.tokenFor), not the window secret. With `quiet`,
 * the hooks that only tell run through curl (see the top of this file); without, all are http.
 */
export function hookSettings(hooksUrl: string, token: string, agentId: string, quiet?: QuietHooks, sandbox?: object): object {
  const headers = agentHeaders(token, agentId);
  const hooks: Record<string, object[]> = {};
  for (const event of HOOK_EVENT_NAMES) hooks[event] = [{ hooks: [hookFor(event, hooksUrl, headers, quiet, sandbox !== undefined)] }];
  // Arcadia's own tools ask on the card where it matters (commands by arcadia.mcp.commandApproval,
  // paths outside the workspace, writes by their diff): the CLI need not ask a second time.
  return { hooks, permissions: { allow: [`mcp__${ARCADIA_MCP_SERVER_NAME}`] }, ...(sandbox ? { sandbox } : {}) };
}

/**
 * `curl`: its path where it exists (quiet hooks), else undefined (http hooks only); `sh` likewise
 * (a quiet PreToolUse); `sandbox`: the CLI's sandbox settings, if any.
 */
export async function writeHookSettingsFile(
  hooksUrl: string,
  token: string,
  agentId: string,
  parent = tmpdir(),
  curl?: string,
  sh?: string,
  sandbox?: object,
): Promise<HookSettingsFile> {
  // A folder of our own (mode 0700 from mkdtemp) so no other user can even list the files.
  const dir = await mkdtemp(join(parent, "arcadia-hooks-"));
  const path = join(dir, "settings.json");
  let quiet: QuietHooks | undefined;
  if (curl) {
    quiet = { curl, sh, headersFile: join(dir, "headers.txt") };
    const lines = Object.entries(agentHeaders(token, agentId)).map(([name, value]) => `${name}: ${value}`);
    await writeFile(quiet.headersFile, `${lines.join("\n")}\n`, { mode: 0o600 });
  }
  await writeFile(path, `${JSON.stringify(hookSettings(hooksUrl, token, agentId, quiet, sandbox), null, 2)}\n`, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

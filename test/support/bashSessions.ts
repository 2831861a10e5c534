/**
 * Scripted Bash sessions for the real CLI in the rig (test/rig): each session is one `claude -p`
 * whose scripted model runs a list of Bash calls one after another, with a command hook that logs
 * every PermissionRequest (a prompt the user would have been shown) and PreToolUse. In print mode
 * nobody can answer a prompt, so every ask is also a permission denial in the CLI's JSON result:
 * the two counts must agree, and either is "how many times the user would have been asked".
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Conversation, Rig } from "../rig/claude-rig.js";
import { rigPaths } from "../rig/paths.js";
import { blocks, readRecords } from "../rig/transcripts.js";

/** One Bash call: `command` (with `$HOME_DIR` and `$RIG_ROOT` filled in), and its description = its name. */
export interface BashCall {
  name: string;
  command: string;
  dangerouslyDisableSandbox?: boolean;
}

export interface BashSession {
  exitCode: number | null;
  stderr: string;
  /** The PermissionRequest hook inputs: every prompt the user would have seen. */
  asked: { tool_input: { command: string; description?: string; dangerouslyDisableSandbox?: boolean } }[];
  /** The CLI's own count of denied permissions (print mode: every ask). */
  denials: number;
  /** Each call's tool_result text, by its name; absent when it never ran. */
  results: Map<string, { text: string; isError: boolean }>;
}

/** The conversation that runs `calls` in order when prompted with `run <session>`. */
export function bashConversation(session: string, calls: readonly BashCall[], where: { home: string; root: string }): Conversation {
  const fill = (command: string) => command.replaceAll("$HOME_DIR", where.home).replaceAll("$RIG_ROOT", where.root);
  return {
    match: `run <${session}>`,
    steps: [
      ...calls.map((c) => ({
        tools: [
          {
            name: "Bash",
            input: { command: fill(c.command), description: c.name, ...(c.dangerouslyDisableSandbox ? { dangerouslyDisableSandbox: true } : {}) },
          },
        ],
      })),
      { text: `session ${session} over` },
    ],
  };
}

/**
 * Runs session `session` with `launchSettings` (the CLI's --settings, e.g. the sandbox block) plus the logging hooks, in `cwd`
 * (default: the rig's workspace; a worktree agent runs in its worktree).
 */
export async function runBashSession(
  rig: Rig,
  session: string,
  launchSettings: object,
  env: Record<string, string> = {},
  cwd: string = rig.workspace,
): Promise<BashSession> {
  const hookLog = join(rig.root, `hooks-${session}.ndjson`);
  const logHook = [{ matcher: "Bash", hooks: [{ type: "command", command: `cat >> '${hookLog}'; echo >> '${hookLog}'` }] }];
  const settingsFile = join(rig.root, `settings-${session}.json`);
  writeFileSync(settingsFile, JSON.stringify({ ...launchSettings, hooks: { PermissionRequest: logHook } }));
  const run = await rig.runPrint(`run <${session}>`, {
    args: ["--settings", settingsFile, "--permission-mode", "default"],
    outputFormat: "json",
    timeoutMs: 240_000,
    env,
    cwd,
  });
  let denials = 0;
  try {
    denials = (JSON.parse(run.stdout) as { permission_denials?: unknown[] }).permission_denials?.length ?? 0;
  } catch {
    // No JSON result: the CLI did not run the session (its stderr says why).
  }
  const asked = existsSync(hookLog)
    ? readFileSync(hookLog, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as BashSession["asked"][number])
    : [];
  const results = new Map<string, { text: string; isError: boolean }>();
  const transcript = rigPaths(rig.home, cwd).transcriptPath(run.sessionId);
  if (existsSync(transcript)) {
    const records = readRecords(transcript);
    const names = new Map<string, string>();
    for (const r of records) {
      for (const b of blocks(r)) {
        if (b.type === "tool_use") names.set(String(b.id), String((b.input as { description?: string }).description));
        if (b.type === "tool_result") {
          const content = b.content;
          const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? "").join("\n") : "";
          results.set(names.get(String(b.tool_use_id)) ?? "?", { text, isError: b.is_error === true });
        }
      }
    }
  }
  return { exitCode: run.exitCode, stderr: run.stderr, asked, denials, results };
}

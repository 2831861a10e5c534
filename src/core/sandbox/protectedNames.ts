/**
 * Names at the top of a writable folder that a sandboxed command may read but never write: what
 * they hold is run later by something outside the sandbox, without anyone asking.
 * - `.git`: its config runs programs on the next `git status` anywhere (core.fsmonitor, filters),
 *   and VS Code's Git extension runs one as soon as the folder changes; its hooks run on commit.
 *   Missing (a folder that is no repository yet): a new `.git` would be a repository of the
 *   agent's making, which VS Code opens on its own.
 * - `.claude`: project settings whose hooks the Claude Code CLI runs (`.claude/settings.json`),
 *   its commands and agents.
 * - `.vscode`: tasks and settings VS Code and its extensions act on (a task can run on folder open;
 *   settings name programs to start).
 * - `.idea`, `.mcp.json` (MCP servers the CLI starts), `.envrc` (direnv), `.gitmodules`.
 */
export const PROTECTED_NAMES: readonly string[] = [".git", ".claude", ".vscode", ".idea", ".mcp.json", ".envrc", ".gitmodules"];

/** Missing ones covered by an empty read-only folder, so that they cannot be made (the others need an approval to matter). */
export const STUB_WHEN_MISSING: ReadonlySet<string> = new Set([".git", ".claude", ".vscode"]);

/** /etc stays readable (programs need it) but for the files only root should read. */
export const ETC_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh",
  "/etc/ssl/private",
  "/etc/security/opasswd",
];

/**
 * Which files a tool call is about to change, from its hook input (PreToolUse): Claude Code's edit
 * tools give absolute paths (`file_path`, `notebook_path`); Arcadia's own (those whose declaration
 * names the field they write: `write_file`, `apply_diff`) take a path absolute or relative to the
 * agent's folder. Anything else (Bash included: what a command writes cannot be known before it
 * runs) changes nothing we can name. Read by the collision guard (hook input) and a session's
 * edited files (transcript tool_uses), so it lives here, below both.
 */
import { isAbsolute, resolve } from "node:path";
import { ARCADIA_TOOLS } from "./declaredTools";
import { ARCADIA_TOOL_PREFIX } from "./serverName";

/** Tool name → the input field holding the path it writes. */
const PATH_FIELD: Readonly<Record<string, string>> = {
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
  ...Object.fromEntries(ARCADIA_TOOLS.flatMap((tool): [string, string][] => (tool.writes ? [[`${ARCADIA_TOOL_PREFIX}${tool.name}`, tool.writes]] : []))),
};

/** Whether the tool edits a file (so the collision guard looks at it). */
export function isEditTool(toolName: string): boolean {
  return Object.hasOwn(PATH_FIELD, toolName);
}

/** The absolute path the call edits, or undefined (not an edit tool, or no usable path). */
export function editTarget(toolName: string, toolInput: unknown, cwd: string): string | undefined {
  const field = Object.hasOwn(PATH_FIELD, toolName) ? PATH_FIELD[toolName] : undefined;
  if (!field || typeof toolInput !== "object" || toolInput === null) return undefined;
  const value = (toolInput as Record<string, unknown>)[field];
  if (typeof value !== "string" || value.length === 0 || value.includes("\0")) return undefined;
  return isAbsolute(value) ? resolve(value) : resolve(cwd, value);
}

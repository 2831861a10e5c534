/**
 * One line that says what a permission request would do, for a person deciding without the
 * terminal: "Bash: rm -rf build", "Write: /home/me/app/src/x.ts". Fuller than a card label
 * ("Running: …", a file's basename) because this is what gets allowed: all of it, never cut, with
 * hidden characters made visible (visibleText: line breaks as ⏎, long blank runs as ␣×N, escapes).
 */
import { visibleText } from "../util";

type Input = Record<string, unknown>;

export function permissionSubject(toolName: string, toolInput: unknown): string {
  const input: Input = toolInput !== null && typeof toolInput === "object" && !Array.isArray(toolInput) ? (toolInput as Input) : {};
  const detail = subjectDetail(toolName, input);
  return visibleText(detail ? `${toolName}: ${detail}` : toolName);
}

function subjectDetail(toolName: string, input: Input): string | undefined {
  switch (toolName) {
    case "Bash":
    case "PowerShell":
      return str(input.command)?.trim() || undefined;
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      return str(input.file_path) ?? str(input.notebook_path);
    case "WebFetch":
      return str(input.url);
    case "WebSearch":
      return str(input.query);
    case "Grep":
    case "Glob": {
      const pattern = str(input.pattern);
      const path = str(input.path);
      return pattern && path ? `${pattern} in ${path}` : pattern;
    }
    case "Agent":
    case "Task":
      return str(input.description);
  }
  // MCP and unknown tools: their arguments, compactly.
  const keys = Object.keys(input);
  return keys.length > 0 ? safeJson(input) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

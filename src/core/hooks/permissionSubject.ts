/**
 * One line that says what a permission request would do, for a person deciding without the
 * terminal: "Bash: rm -rf build", "Write: /home/me/app/src/x.ts". Fuller than a card label
 * ("Running: …", a file's basename) because this is what gets allowed. Plain text, one line.
 */
const SUBJECT_MAX = 160;

type Input = Record<string, unknown>;

export function permissionSubject(toolName: string, toolInput: unknown): string {
  const input: Input = toolInput !== null && typeof toolInput === "object" && !Array.isArray(toolInput) ? (toolInput as Input) : {};
  const detail = subjectDetail(toolName, input);
  return oneLine(detail ? `${toolName}: ${detail}` : toolName);
}

function subjectDetail(toolName: string, input: Input): string | undefined {
  switch (toolName) {
    case "Bash":
    case "PowerShell":
      return command(input.command);
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

/** The first line of a command; "…" says that more lines follow. */
function command(value: unknown): string | undefined {
  const text = str(value)?.trim();
  if (!text) return undefined;
  const lines = text.split(/\r?\n/);
  return lines.length > 1 ? `${lines[0]} …` : lines[0];
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

/** Control characters (newlines, terminal escapes) become spaces; cut by code points, so an
 * emoji is never split. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length > SUBJECT_MAX ? `${chars.slice(0, SUBJECT_MAX - 1).join("")}…` : flat;
}

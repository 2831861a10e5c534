/**
 * Human-readable, one-line labels for tool calls: what a person reads on a card at a glance.
 * Plain text only: the webview renders these as text nodes, never as HTML.
 */

const COMMAND_MAX = 60;

type Input = Record<string, unknown>;

function str(input: Input, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Last path segment, for both POSIX and Windows separators. */
export function basename(path: string): string {
  // A loop, not /[\\/]+$/: that regex retries from every slash of a long run that does not end
  // the string, quadratic in a hostile path (200,000 slashes: 25 s).
  let end = path.length;
  while (end > 0 && (path[end - 1] === "/" || path[end - 1] === "\\")) end--;
  const trimmed = path.slice(0, end);
  const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  return cut >= 0 ? trimmed.slice(cut + 1) : trimmed;
}

/** First line of a command, cut at 60 characters with an ellipsis. */
export function shortCommand(command: string): string {
  const trimmed = command.trim();
  const newline = trimmed.indexOf("\n");
  const firstLine = newline < 0 ? trimmed : trimmed.slice(0, trimmed[newline - 1] === "\r" ? newline - 1 : newline);
  // Never more code points than UTF-16 units: a line this short needs no counting.
  if (firstLine.length <= COMMAND_MAX) return firstLine;
  // Count code points, not UTF-16 units, so an emoji is never split in half.
  const chars = Array.from(firstLine);
  return chars.length > COMMAND_MAX ? `${chars.slice(0, COMMAND_MAX).join("")}…` : firstLine;
}

function host(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** `mcp__<server>__<tool>` → `{server, tool}`; server names may themselves contain `_`. */
export function parseMcpName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith("mcp__")) return undefined;
  const rest = name.slice("mcp__".length);
  const sep = rest.indexOf("__");
  if (sep <= 0 || sep + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, sep), tool: rest.slice(sep + 2) };
}

function fileOf(input: Input): string | undefined {
  return str(input, "file_path") ?? str(input, "notebook_path") ?? str(input, "path");
}

function fileLabel(verb: string, file: string | undefined, fallback: string): string {
  return file ? `${verb} ${basename(file)}` : fallback;
}

function withDetail(prefix: string, detail: string | undefined, fallback: string): string {
  return detail ? `${prefix}${shortCommand(detail)}` : fallback;
}

export function toolLabel(name: string, rawInput: unknown): string {
  const input: Input = rawInput && typeof rawInput === "object" ? (rawInput as Input) : {};
  // The file is looked up only by the tools that name one (a label per tool: 20,000 open tools).
  switch (name) {
    case "Read":
      return fileLabel("Reading", fileOf(input), "Reading a file");
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      return fileLabel("Editing", fileOf(input), "Editing a file");
    case "Write":
      return fileLabel("Writing", fileOf(input), "Writing a file");
    case "Bash":
    case "PowerShell":
      return withDetail("Running: ", str(input, "command"), "Running a command");
    case "Grep":
      return withDetail("Searching code: ", str(input, "pattern"), "Searching code");
    case "Glob":
      return withDetail("Searching files: ", str(input, "pattern"), "Searching files");
    case "WebFetch": {
      const url = str(input, "url");
      return url ? `Fetching ${host(url)}` : "Fetching a page";
    }
    case "WebSearch":
      return withDetail("Searching the web: ", str(input, "query"), "Searching the web");
    case "Agent":
    case "Task":
      return withDetail("Subtask: ", str(input, "description"), "Subtask");
    case "AskUserQuestion":
      return "Waiting for your answer";
  }
  const mcp = parseMcpName(name);
  if (mcp?.server === ARCADIA_SERVER) return arcadiaToolLabel(mcp.tool, input) ?? `${mcp.tool} (${mcp.server})`;
  if (mcp) return `${mcp.tool} (${mcp.server})`;
  return `Using ${name}`;
}

/** Arcadia's own MCP tools (src/core/tools) read like the built-in ones they stand in for. */
const ARCADIA_SERVER = "arcadia";

function arcadiaToolLabel(tool: string, input: Input): string | undefined {
  const path = str(input, "path");
  switch (tool) {
    case "execute_command":
      return withDetail("Running: ", str(input, "command"), "Running a command");
    case "read_file":
      return path ? `Reading ${basename(path)}` : "Reading a file";
    case "write_file":
      return path ? `Writing ${basename(path)}` : "Writing a file";
    case "apply_diff":
      return path ? `Editing ${basename(path)}` : "Editing a file";
    case "list_files":
      return path ? `Listing ${basename(path)}` : "Listing files";
    case "search_files":
      return withDetail("Searching code: ", str(input, "pattern"), "Searching code");
    case "get_diagnostics":
      return path ? `Checking problems in ${basename(path)}` : "Checking problems";
    case "open_file":
      return path ? `Opening ${basename(path)}` : "Opening a file";
  }
  return undefined;
}

/** Tools that run a sub-agent; `Task` is the name before CLI 2.1.63. */
export function isSubagentTool(name: string): boolean {
  return name === "Agent" || name === "Task";
}

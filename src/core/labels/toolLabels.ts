/**
 * Human-readable, one-line labels for tool calls: what a person reads on a card at a glance.
 * Plain text only: the webview renders these as text nodes, never as HTML.
 */

import { ARCADIA_MCP_SERVER_NAME, arcadiaTool } from "../toolDeclarations";

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

/**
 * A call in two forms: `label` while it runs ("Reading App.tsx", "Running: npm test"); `action`, the
 * bare deed, for after a verdict that says it did not run or did not finish ("Denied: touch x",
 * "Waiting for you: read App.tsx"): a row never says "Denied: Running: …". Once done a row keeps its
 * label, but a command's reads as its deed ("npm test" ✓): rowLabel below.
 */
export interface ToolWords {
  label: string;
  action: string;
}

/** One verb, both forms: "Reading " / "read ", "Running: " / "" (a command is its own deed). */
function words(progressive: string, bare: string, object: string | undefined, fallback: ToolWords): ToolWords {
  return object ? { label: `${progressive}${object}`, action: `${bare}${object}` } : fallback;
}

const fixed = (label: string, action: string): ToolWords => ({ label, action });

/** The name of the file a tool names, if it names one. */
function fileOf(input: Input): string | undefined {
  return fileName(str(input, "file_path") ?? str(input, "notebook_path") ?? str(input, "path"));
}

function fileName(path: string | undefined): string | undefined {
  return path ? basename(path) : undefined;
}

function detail(value: string | undefined): string | undefined {
  return value ? shortCommand(value) : undefined;
}

export function toolWords(name: string, rawInput: unknown): ToolWords {
  const input: Input = rawInput && typeof rawInput === "object" ? (rawInput as Input) : {};
  // The file is looked up only by the tools that name one (words per tool: 20,000 open tools).
  switch (name) {
    case "Read":
      return words("Reading ", "read ", fileOf(input), fixed("Reading a file", "read a file"));
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      return words("Editing ", "edit ", fileOf(input), fixed("Editing a file", "edit a file"));
    case "Write":
      return words("Writing ", "write ", fileOf(input), fixed("Writing a file", "write a file"));
    case "Bash":
    case "PowerShell":
      return words("Running: ", "", detail(str(input, "command")), fixed("Running a command", "a command"));
    case "Grep":
      return words("Searching code: ", "search code: ", detail(str(input, "pattern")), fixed("Searching code", "search code"));
    case "Glob":
      return words("Searching files: ", "search files: ", detail(str(input, "pattern")), fixed("Searching files", "search files"));
    case "WebFetch": {
      const url = str(input, "url");
      return words("Fetching ", "fetch ", url ? host(url) : undefined, fixed("Fetching a page", "fetch a page"));
    }
    case "WebSearch":
      return words("Searching the web: ", "search the web: ", detail(str(input, "query")), fixed("Searching the web", "search the web"));
    case "Agent":
    case "Task":
      return words("Subtask: ", "subtask: ", detail(str(input, "description")), fixed("Subtask", "subtask"));
    case "AskUserQuestion":
      return fixed("Waiting for your answer", "a question");
  }
  const mcp = parseMcpName(name);
  if (mcp?.server === ARCADIA_MCP_SERVER_NAME) return arcadiaToolWords(mcp.tool, input) ?? fixed(`${mcp.tool} (${mcp.server})`, `${mcp.tool} (${mcp.server})`);
  if (mcp) return fixed(`${mcp.tool} (${mcp.server})`, `${mcp.tool} (${mcp.server})`);
  return fixed(`Using ${name}`, `use ${name}`);
}

export function toolLabel(name: string, rawInput: unknown): string {
  return toolWords(name, rawInput).label;
}

/** The bare deed of a call, for after a verdict: "touch x", "read App.tsx". */
export function toolAction(name: string, rawInput: unknown): string {
  return toolWords(name, rawInput).action;
}

/**
 * Arcadia's own MCP tools read like the built-in ones they stand in for, in the words each one's
 * declaration gives (core/toolDeclarations; test/unit/toolWords.test.ts: every one has them).
 */
function arcadiaToolWords(tool: string, input: Input): ToolWords | undefined {
  const declared = arcadiaTool(tool)?.words;
  if (!declared) return undefined;
  const { of } = declared;
  const object = of === undefined ? undefined : "file" in of ? fileName(str(input, of.file)) : detail(str(input, of.text));
  return words(declared.label, declared.action, object, declared.otherwise);
}

/** Tools that run a sub-agent; `Task` is the name before CLI 2.1.63. */
export function isSubagentTool(name: string): boolean {
  return name === "Agent" || name === "Task";
}

/**
 * What a row ended as, in words before its deed, when the label alone would tell it wrong ("Running:
 * touch x" for a call that never ran): one layer says it, for live and restored cards alike.
 */
const VERDICTS: Readonly<Record<string, string>> = {
  waiting: "Waiting for you",
  denied: "Denied",
  interrupted: "Interrupted",
  orphaned: "No result",
  unknown: "Output unknown",
};

/** Outcomes of a call that ran to its end, well or badly: its icon says so (✓, ✗). */
const RAN: ReadonlySet<string> = new Set(["done", "error"]);

/**
 * A call whose finished row reads as its bare deed: a command says what it did by itself ("wc -l
 * x" ✓), while "Running: wc -l x" beside a ✓ on an idle agent says it still runs (issue 33). Other
 * tools keep their label ("Reading App.tsx" ✓ reads as a checked item).
 */
function endsAsDeed(name: string): boolean {
  if (name === "Bash" || name === "PowerShell") return true;
  const mcp = name.startsWith("mcp__") ? parseMcpName(name) : undefined;
  return mcp?.server === ARCADIA_MCP_SERVER_NAME && arcadiaTool(mcp.tool)?.words.endsAsDeed === true;
}

/**
 * A call's words with no verdict before them (a list that says its outcome apart: a session's
 * reader, a card's earlier turns): its label, but a command's bare deed once it ran.
 */
export function labelOnceRan(outcome: string, label: string, action: string, name: string): string {
  return RAN.has(outcome) && action.length > 0 && endsAsDeed(name) ? action : label;
}

/**
 * A row's words: its label while it runs (and, for most tools, once done), a command's bare deed
 * once it ran, else its verdict and bare deed ("Denied: touch x").
 */
export function rowLabel(outcome: string, label: string, action: string, name: string): string {
  const verdict = VERDICTS[outcome];
  return verdict === undefined ? labelOnceRan(outcome, label, action, name) : `${verdict}: ${action}`;
}

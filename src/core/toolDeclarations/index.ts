/**
 * src/core/toolDeclarations: its public face. What Arcadia's MCP tools are, without their
 * handlers: each tool's declaration, the server's name and the tool prefix the CLI puts before
 * our tools' names, and which file a tool call writes. A floor low enough for the transcript, the
 * card's labels and the collision guard to read it without loading the server or a handler
 * (scripts/check-layers.mjs, FLOORS).
 */
export type { ArcadiaTool, ArgsOf, CallWords, DeclaredTool, InputShape, ToolArgs } from "./arcadiaTool";
export { ARCADIA_TOOLS, type ArcadiaToolName, arcadiaTool, declaredTool } from "./declaredTools";
export { editTarget, isEditTool } from "./editTargets";
export { applyDiff } from "./applyDiff";
export { completeByAcceptingTheDiff } from "./diffComplete";
export { completeWithOutputSoFar, DEFAULT_COMMAND_TIMEOUT_SECONDS, executeCommand, MAX_OUTPUT_CHARS } from "./executeCommand";
export { getDiagnostics, MAX_DIAGNOSTICS } from "./getDiagnostics";
export { DEFAULT_LIST_LIMIT, listFiles } from "./listFiles";
export { openFile } from "./openFile";
export { DEFAULT_LINES, MAX_LINE_CHARS, MAX_READ_BYTES, readFile } from "./readFile";
export { DEFAULT_MATCHES, MAX_SEARCH_FILE_BYTES, searchFiles } from "./searchFiles";
export { writeFile } from "./writeFile";
export { ARCADIA_MCP_SERVER_NAME, ARCADIA_TOOL_PREFIX } from "./serverName";

/** Arcadia's MCP tools (plain Node): the tool specs, their ports, and the command approval policy. */
export { ARCADIA_TOOL_NAMES, registerArcadiaTools } from "./registerArcadiaTools";
export { linkedResources } from "./linkedResources";
export { commandApprovalPolicy, type CommandApprovalMode } from "./commandApproval";
export { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_OUTPUT_CHARS } from "./executeCommand";
export { nodeWorkspaceFiles } from "./nodeWorkspaceFiles";
export { applyEdits, type Edit } from "./searchReplace";
export type * from "./ports";
export { terminalText } from "./terminalText";

/** Arcadia's MCP tools (plain Node): the tool specs, their ports, and the command approval policy. */
export { ARCADIA_TOOLS, arcadiaTool, registerArcadiaTools } from "./arcadiaTools";
export { linkedResources } from "./linkedResources";
export {
  commandTextDecision,
  decideCommandApproval,
  type CommandApprovalDecision,
  type CommandApprovalMode,
  type CommandApprovalSettings,
} from "./commandApproval";
export { nodeCommandDisk } from "./commandDisk";
export { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_OUTPUT_CHARS } from "./declarations/executeCommand";
export { nodeWorkspaceFiles } from "./nodeWorkspaceFiles";
export { applyEdits, type Edit } from "./searchReplace";
export type * from "./ports";
export { terminalText } from "./terminalText";
export { readDirectoryChecked, readFileChecked, writeFileChecked } from "./checkedOpen";
export { ProcessCommandRunner } from "./processCommandRunner";

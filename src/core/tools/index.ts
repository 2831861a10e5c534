/** Arcadia's MCP tools' handlers (plain Node; what each tool is: core/toolDeclarations), their ports, and the command approval policy. */
export { registerArcadiaTools } from "./arcadiaTools";
export { linkedResources } from "./linkedResources";
export {
  commandTextDecision,
  decideCommandApproval,
  type CommandApprovalDecision,
  type CommandApprovalMode,
  type CommandApprovalSettings,
} from "./commandApproval";
export { nodeCommandDisk } from "./commandDisk";
export { nodeWorkspaceFiles } from "./nodeWorkspaceFiles";
export { applyEdits, type Edit } from "./searchReplace";
export type * from "./ports";
export { terminalText } from "./terminalText";
export { readDirectoryChecked, readFileChecked, writeFileChecked } from "./checkedOpen";
export { ProcessCommandRunner } from "./processCommandRunner";

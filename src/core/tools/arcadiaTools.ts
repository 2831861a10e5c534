/**
 * Each of Arcadia's declared MCP tools (core/toolDeclarations: everything it is) with its handler
 * (<tool>.ts). A new tool is those two files, a line in the declared list
 * (core/toolDeclarations/declaredTools.ts) and a line below; the compiler asks for the handler of
 * every declared tool, and only of those.
 *
 * Only the server runs the handlers: the extension and the CLI read the declarations from
 * core/toolDeclarations and never import this file, so their bundles carry no handler, zod or the
 * MCP SDK (package.json `sideEffects: false`; test/unit/bundles.test.ts holds them to it).
 */
import type { AddTool } from "../server";
import { ARCADIA_TOOLS, type ArcadiaToolName } from "../toolDeclarations";
import { applyDiffTool } from "./applyDiff";
import { executeCommandTool } from "./executeCommand";
import { getAgentStatusTool } from "./getAgentStatus";
import { getDiagnosticsTool } from "./getDiagnostics";
import type { ImplementedTool, ToolOptions } from "./implement";
import { listFilesTool } from "./listFiles";
import { openFileTool } from "./openFile";
import type { ToolPorts } from "./ports";
import { readFileTool } from "./readFile";
import { searchFilesTool } from "./searchFiles";
import { writeFileTool } from "./writeFile";

/** Each declared tool's handler. */
const HANDLED: { readonly [N in ArcadiaToolName]: ImplementedTool<N> } = {
  execute_command: executeCommandTool,
  read_file: readFileTool,
  list_files: listFilesTool,
  search_files: searchFilesTool,
  write_file: writeFileTool,
  apply_diff: applyDiffTool,
  get_diagnostics: getDiagnosticsTool,
  open_file: openFileTool,
  get_agent_status: getAgentStatusTool,
};

/** Adds every tool, declaration and handler, through the server's `addTool`, in the declared order. */
export function registerArcadiaTools(addTool: AddTool, ports: ToolPorts, options: ToolOptions = {}): void {
  for (const tool of ARCADIA_TOOLS) HANDLED[tool.name].addTo(addTool, ports, options);
}

/**
 * All of Arcadia's MCP tools, added through the server's `addTool`: each declaration
 * (declarations/index.ts) with its handler. The compiler asks for the handler of every declared
 * tool, and only of those.
 */
import type { AddTool } from "../server";
import { applyDiffTool } from "./applyDiff";
import { ARCADIA_TOOLS, type ArcadiaToolName } from "./declarations";
import { executeCommandTool } from "./executeCommand";
import { getDiagnosticsTool } from "./getDiagnostics";
import type { ImplementedTool, ToolOptions } from "./implement";
import { listFilesTool } from "./listFiles";
import { openFileTool } from "./openFile";
import type { ToolPorts } from "./ports";
import { readFileTool } from "./readFile";
import { searchFilesTool } from "./searchFiles";
import { writeFileTool } from "./writeFile";

const HANDLED: { readonly [N in ArcadiaToolName]: ImplementedTool<N> } = {
  execute_command: executeCommandTool,
  read_file: readFileTool,
  list_files: listFilesTool,
  search_files: searchFilesTool,
  write_file: writeFileTool,
  apply_diff: applyDiffTool,
  get_diagnostics: getDiagnosticsTool,
  open_file: openFileTool,
};

export function registerArcadiaTools(addTool: AddTool, ports: ToolPorts, options: ToolOptions = {}): void {
  for (const tool of ARCADIA_TOOLS) HANDLED[tool.name].addTo(addTool, ports, options);
}

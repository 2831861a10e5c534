/** All of Arcadia's MCP tools, added through the server's `addTool`, and what the tracker needs of the ports. */
import type { AddTool } from "../server/mcp/toolRegistrar";
import { applyDiffTool } from "./applyDiff";
import { executeCommandTool } from "./executeCommand";
import { getDiagnosticsTool } from "./getDiagnostics";
import { listFilesTool } from "./listFiles";
import { openFileTool } from "./openFile";
import type { ToolPorts } from "./ports";
import { readFileTool } from "./readFile";
import { type SearchOptions, searchFilesTool } from "./searchFiles";
import { writeFileTool } from "./writeFile";

export function registerArcadiaTools(addTool: AddTool, ports: ToolPorts, options: { search?: SearchOptions } = {}): void {
  addTool(executeCommandTool(ports));
  addTool(readFileTool(ports));
  addTool(listFilesTool(ports));
  addTool(searchFilesTool(ports, options.search));
  addTool(writeFileTool(ports));
  addTool(applyDiffTool(ports));
  addTool(getDiagnosticsTool(ports));
  addTool(openFileTool(ports));
}

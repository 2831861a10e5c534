/**
 * THE list of Arcadia's MCP tools: each tool's declaration (declarations/<tool>.ts: everything it
 * is) and its handler (<tool>.ts). A new tool is those two files and a line in each list below;
 * the compiler asks for the handler of every declared tool, and only of those.
 *
 * Everyone reads the declarations (the card's rows their words, the collision guard the file a
 * tool writes); only the server runs the handlers. The extension and the CLI import this file for
 * ARCADIA_TOOLS alone, so their bundles drop HANDLED and, with it, every handler, zod and the MCP
 * SDK (package.json `sideEffects: false`; test/unit/bundles.test.ts holds them to it).
 */
import type { AddTool } from "../server";
import { applyDiffTool } from "./applyDiff";
import type { DeclaredTool } from "./declarations/arcadiaTool";
import { applyDiff } from "./declarations/applyDiff";
import { executeCommand } from "./declarations/executeCommand";
import { getDiagnostics } from "./declarations/getDiagnostics";
import { listFiles } from "./declarations/listFiles";
import { openFile } from "./declarations/openFile";
import { readFile } from "./declarations/readFile";
import { searchFiles } from "./declarations/searchFiles";
import { writeFile } from "./declarations/writeFile";
import { executeCommandTool } from "./executeCommand";
import { getDiagnosticsTool } from "./getDiagnostics";
import type { ImplementedTool, ToolOptions } from "./implement";
import { listFilesTool } from "./listFiles";
import { openFileTool } from "./openFile";
import type { ToolPorts } from "./ports";
import { readFileTool } from "./readFile";
import { searchFilesTool } from "./searchFiles";
import { writeFileTool } from "./writeFile";

/** The declarations, in the order the server offers them. */
export const ARCADIA_TOOLS = [executeCommand, readFile, listFiles, searchFiles, writeFile, applyDiff, getDiagnostics, openFile] as const;

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
};

export type ArcadiaToolName = (typeof ARCADIA_TOOLS)[number]["name"];

const byName: ReadonlyMap<string, DeclaredTool> = new Map(ARCADIA_TOOLS.map((tool): [string, DeclaredTool] => [tool.name, tool]));

/** The declared tool of this MCP name (the part after `mcp__arcadia__`), if there is one. */
export function arcadiaTool(name: string): DeclaredTool | undefined {
  return byName.get(name);
}

/** Adds every tool, declaration and handler, through the server's `addTool`. */
export function registerArcadiaTools(addTool: AddTool, ports: ToolPorts, options: ToolOptions = {}): void {
  for (const tool of ARCADIA_TOOLS) HANDLED[tool.name].addTo(addTool, ports, options);
}

/**
 * THE list of Arcadia's MCP tools, as declared (./<tool>.ts: everything a tool is but its
 * handler). Everyone reads it — the card's words (core/labels), the collision guard and a
 * session's edited files (./editTargets.ts), the server's registration — and it loads no handler:
 * each declared tool's handler is listed beside it in core/tools/arcadiaTools.ts, and the compiler
 * asks there for the handler of every tool declared here, and only of those.
 */
import type { DeclaredTool } from "./arcadiaTool";
import { applyDiff } from "./applyDiff";
import { executeCommand } from "./executeCommand";
import { getAgentStatus } from "./getAgentStatus";
import { getDiagnostics } from "./getDiagnostics";
import { listFiles } from "./listFiles";
import { openFile } from "./openFile";
import { readFile } from "./readFile";
import { searchFiles } from "./searchFiles";
import { writeFile } from "./writeFile";

/** The declarations, in the order the server offers them. */
export const ARCADIA_TOOLS = [executeCommand, readFile, listFiles, searchFiles, writeFile, applyDiff, getDiagnostics, openFile, getAgentStatus] as const;

export type ArcadiaToolName = (typeof ARCADIA_TOOLS)[number]["name"];

const byName: ReadonlyMap<string, DeclaredTool> = new Map(ARCADIA_TOOLS.map((tool): [string, DeclaredTool] => [tool.name, tool]));

/** One declared tool by its name, typed as declared: a handler takes its declaration from here (no export of its own). */
export function declaredTool<const N extends ArcadiaToolName>(name: N): Extract<(typeof ARCADIA_TOOLS)[number], { name: N }> {
  return ARCADIA_TOOLS.find((tool) => tool.name === name) as Extract<(typeof ARCADIA_TOOLS)[number], { name: N }>;
}

/** The declared tool of this MCP name (the part after `mcp__arcadia__`), if there is one. */
export function arcadiaTool(name: string): DeclaredTool | undefined {
  return byName.get(name);
}

/**
 * THE list of Arcadia's MCP tools, as declared (./arcadiaTool.ts). The server registers these
 * (../registerArcadiaTools.ts: the compiler asks for each one's handler), the card's rows read
 * their words, the collision guard the file they write. A new tool: its declaration in a file of
 * its own here, and a line below.
 */
import { applyDiff } from "./applyDiff";
import type { DeclaredTool } from "./arcadiaTool";
import { executeCommand } from "./executeCommand";
import { getDiagnostics } from "./getDiagnostics";
import { listFiles } from "./listFiles";
import { openFile } from "./openFile";
import { readFile } from "./readFile";
import { searchFiles } from "./searchFiles";
import { writeFile } from "./writeFile";

export const ARCADIA_TOOLS = [executeCommand, readFile, listFiles, searchFiles, writeFile, applyDiff, getDiagnostics, openFile] as const;

export type ArcadiaToolName = (typeof ARCADIA_TOOLS)[number]["name"];

const byName: ReadonlyMap<string, DeclaredTool> = new Map(ARCADIA_TOOLS.map((tool): [string, DeclaredTool] => [tool.name, tool]));

/** The declared tool of this MCP name (the part after `mcp__arcadia__`), if there is one. */
export function arcadiaTool(name: string): DeclaredTool | undefined {
  return byName.get(name);
}

export type { ArcadiaTool, ArgsOf, CallWords, DeclaredTool } from "./arcadiaTool";

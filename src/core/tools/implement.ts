/**
 * A declared tool (core/toolDeclarations) and its handler, made into what the server registers (a
 * ToolSpec): everything but the handler comes from the declaration, the input schema built here
 * from zod (the declaration loads without it).
 */
import { z } from "zod";
import type { CallContext, ToolResult } from "../mcp";
import type { AddTool, ToolSpec } from "../server";
import type { ArcadiaTool, InputShape, ToolArgs } from "../toolDeclarations";
import type { ToolPorts } from "./ports";

/** What registerArcadiaTools is given beside the ports. */
export interface ToolOptions {
  search?: SearchOptions;
}

export interface SearchOptions {
  /** How long the regex may take on one file before the search gives up. */
  regexDeadlineMs?: number;
}

export type Handler<S extends InputShape> = (args: ToolArgs<S>, context: CallContext) => Promise<ToolResult>;

/** A tool ready to register: its declaration's name, and how to add it on a set of ports. */
export interface ImplementedTool<N extends string> {
  readonly name: N;
  addTo(addTool: AddTool, ports: ToolPorts, options?: ToolOptions): void;
}

export function implement<N extends string, S extends InputShape>(
  tool: ArcadiaTool<N, S>,
  handler: (ports: ToolPorts, options: ToolOptions) => Handler<S>,
): ImplementedTool<N> {
  // Built once, on the first registration (each MCP session registers every tool), as a module's shape was.
  let inputSchema: S | undefined;
  return {
    name: tool.name,
    addTo(addTool, ports, options = {}) {
      inputSchema ??= tool.input(z);
      addTool(toolSpec(tool, inputSchema, handler(ports, options)));
    },
  };
}

function toolSpec<S extends InputShape>(tool: ArcadiaTool<string, S>, inputSchema: S, handler: Handler<S>): ToolSpec<S> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    annotations: tool.annotations,
    display: (args) => tool.display(args),
    handler,
    complete: tool.complete,
  };
}

/**
 * How callers add tools: a tool is a zod input shape, a one-line display for the panel, a
 * handler, and what Complete on the panel does for its calls (when it has a partial result).
 * Every call goes through the tracker (so the panel can see and force-finish it), gets
 * the client's abort signal and `_meta`, the agent the request authenticated as (its own token,
 * ../auth.ts), and a progress keep-alive while it runs.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { CallContext, CompleteBehaviour, ToolCallTracker, ToolResult } from "../../mcp";
import { keepAlive, type ProgressSink } from "./progressKeepAlive";

export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  title?: string;
  description: string;
  inputSchema: S;
  annotations?: ToolAnnotations;
  /** A one-line description of a call for the panel, e.g. the command. */
  display: (args: z.infer<z.ZodObject<S>>) => string;
  handler: (args: z.infer<z.ZodObject<S>>, context: CallContext) => Promise<ToolResult>;
  /** Complete on the panel for a call of this tool, with its hint. Without it: like Cancel. */
  complete?: CompleteBehaviour;
}

export type AddTool = <S extends z.ZodRawShape>(spec: ToolSpec<S>) => void;

/** Called once per MCP session (each session has its own McpServer). */
export type RegisterTools = (addTool: AddTool, server: McpServer) => void;

/** What the SDK hands a tool callback, the parts used here. */
interface SdkExtra extends ProgressSink {
  signal: AbortSignal;
  /** Set by the /mcp route from the authenticated agent (mcpRoute.ts). */
  authInfo?: { clientId?: string };
}

export function toolAdder(server: McpServer, tracker: ToolCallTracker, progressIntervalMs: number): AddTool {
  return (spec) => {
    const tracked = tracker.wrapHandler(spec);
    const callback = async (args: z.infer<z.ZodObject<typeof spec.inputSchema>>, extra: SdkExtra) => {
      const stop = keepAlive(extra, progressIntervalMs, spec.name);
      try {
        return await tracked(args, { signal: extra.signal, _meta: extra._meta, agentId: agentIdFrom(extra) });
      } finally {
        stop();
      }
    };
    server.registerTool(
      spec.name,
      { title: spec.title, description: spec.description, inputSchema: spec.inputSchema, annotations: spec.annotations },
      // The SDK's callback type is computed from the shape through its zod-compat layer; it is the
      // same object type as z.infer here, but TypeScript cannot see that through the generic.
      callback as unknown as Parameters<McpServer["registerTool"]>[2],
    );
  };
}

function agentIdFrom(extra: SdkExtra): string | undefined {
  return extra.authInfo?.clientId || undefined;
}

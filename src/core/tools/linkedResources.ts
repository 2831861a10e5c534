/**
 * The tracker's force-finish powers, from the same ports the tools use. Its own file: the
 * extension builds the tracker at activation, while the tools themselves (and zod, and the MCP
 * SDK) load only when the server starts.
 */
import type { LinkedResources } from "../mcp";
import type { ToolPorts } from "./ports";

export function linkedResources(ports: Pick<ToolPorts, "approvals" | "diffs" | "commands">): LinkedResources {
  return {
    cancelApproval: (id) => void ports.approvals.cancelApproval(id),
    rejectDiff: (id) => ports.diffs.reject(id),
    acceptDiff: (id) => ports.diffs.accept(id),
    interruptTerminal: (id) => ports.commands.interrupt(id),
    partialOutput: (id) => ports.commands.partialOutput(id),
  };
}

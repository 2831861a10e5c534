/**
 * Which transcript tool_use an MCP call is, so the right row on the agent's card can show
 * "awaiting approval" and the force-finish buttons.
 *
 * Claude Code sends the tool_use id with each call (`_meta["claudecode/toolUseId"]`): that is
 * exact. For clients that do not, the fallback is the *oldest* pending, not yet matched tool_use
 * of that tool in that agent's session ("most recent" picked the wrong call once the CLI queued
 * several calls per reply). A tool_use is never matched twice, and one that ended (denied, or a
 * denial cascading to the calls queued after it) is no longer a candidate.
 */

interface PendingUse {
  toolUseId: string;
  tool: string;
  matchedBy?: string;
}

export interface CallToMatch {
  callId: string;
  /** The MCP tool's own name (e.g. "execute_command"), not the mcp__server__ form. */
  tool: string;
  agentId?: string;
  toolUseId?: string;
}

const NO_AGENT = "";

export class ToolUseMatcher {
  /** Per agent, its pending tool_uses of this server's tools, in transcript order. */
  private readonly pending = new Map<string, PendingUse[]>();
  private readonly byCall = new Map<string, string>();

  /** A tool_use of one of this server's tools appeared in an agent's transcript. */
  toolUseStarted(agentId: string | undefined, toolUseId: string, tool: string): void {
    const list = this.listOf(agentId);
    if (!list.some((p) => p.toolUseId === toolUseId)) list.push({ toolUseId, tool });
  }

  /** Its result is in the transcript (done, error, denied, interrupted, orphaned). */
  toolUseEnded(agentId: string | undefined, toolUseId: string): void {
    const list = this.listOf(agentId);
    const index = list.findIndex((p) => p.toolUseId === toolUseId);
    if (index >= 0) list.splice(index, 1);
  }

  /** The tool_use this call is, or undefined when it cannot be told (yet). */
  match(call: CallToMatch): string | undefined {
    const known = this.byCall.get(call.callId);
    if (known) return known;
    const list = this.listOf(call.agentId);
    let use: PendingUse | undefined;
    if (call.toolUseId) {
      use = list.find((p) => p.toolUseId === call.toolUseId);
      // The transcript may not show it yet: the id is still right.
      if (!use) {
        this.byCall.set(call.callId, call.toolUseId);
        return call.toolUseId;
      }
    } else {
      use = list.find((p) => p.tool === call.tool && p.matchedBy === undefined);
    }
    if (!use || (use.matchedBy !== undefined && use.matchedBy !== call.callId)) return undefined;
    use.matchedBy = call.callId;
    this.byCall.set(call.callId, use.toolUseId);
    return use.toolUseId;
  }

  /** The call is over; its tool_use stays pending until the transcript ends it. */
  release(callId: string): void {
    this.byCall.delete(callId);
  }

  private listOf(agentId: string | undefined): PendingUse[] {
    const key = agentId ?? NO_AGENT;
    let list = this.pending.get(key);
    if (!list) {
      list = [];
      this.pending.set(key, list);
    }
    return list;
  }
}

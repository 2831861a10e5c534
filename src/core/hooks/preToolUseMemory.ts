/**
 * The PreToolUse inputs of each agent, remembered so that a PermissionRequest (which carries no
 * tool_use id) can be given the id of its call: same session, same prompt_id, same tool name,
 * deep-equal tool_input. Each remembered call is claimed by at most one request, so two calls
 * with identical inputs still get one request each. Forgotten at PostToolUse/PostToolUseFailure;
 * calls that never get one (denied with Escape, interrupted) fall off the end of a bounded list.
 */
import { isDeepStrictEqual } from "node:util";

export const DEFAULT_MAX_REMEMBERED_PER_AGENT = 256;

export interface ToolCallKey {
  sessionId: string;
  /** Absent in hook inputs of older CLIs: then it does not take part in matching. */
  promptId: string | undefined;
  toolName: string;
  toolInput: unknown;
}

export interface RememberedCall extends ToolCallKey {
  toolUseId: string;
  claimed: boolean;
}

export class PreToolUseMemory {
  private readonly byAgent = new Map<string, RememberedCall[]>();

  constructor(private readonly maxPerAgent = DEFAULT_MAX_REMEMBERED_PER_AGENT) {}

  remember(agentId: string, call: ToolCallKey & { toolUseId: string }): RememberedCall {
    const calls = this.byAgent.get(agentId) ?? [];
    this.byAgent.set(agentId, calls);
    const existing = calls.find((c) => c.toolUseId === call.toolUseId);
    if (existing) return existing;
    const entry: RememberedCall = { ...call, claimed: false };
    calls.push(entry);
    if (calls.length > this.maxPerAgent) calls.splice(0, calls.length - this.maxPerAgent);
    return entry;
  }

  /** Claims the oldest unclaimed call matching `key`; its tool_use id, or undefined. */
  claim(agentId: string, key: ToolCallKey): string | undefined {
    const call = this.byAgent.get(agentId)?.find((c) => !c.claimed && matches(c, key));
    if (!call) return undefined;
    call.claimed = true;
    return call.toolUseId;
  }

  forget(agentId: string, toolUseId: string): void {
    const calls = this.byAgent.get(agentId);
    if (!calls) return;
    const i = calls.findIndex((c) => c.toolUseId === toolUseId);
    if (i >= 0) calls.splice(i, 1);
    if (calls.length === 0) this.byAgent.delete(agentId);
  }

  forgetAgent(agentId: string): void {
    this.byAgent.delete(agentId);
  }
}

export function matches(a: ToolCallKey, b: ToolCallKey): boolean {
  return (
    a.sessionId === b.sessionId &&
    (a.promptId === undefined || b.promptId === undefined || a.promptId === b.promptId) &&
    a.toolName === b.toolName &&
    isDeepStrictEqual(a.toolInput, b.toolInput)
  );
}

/**
 * Sub-agents alive per agent, from its hooks: an `Agent` (or, in older CLIs, `Task`) call is alive
 * from its PreToolUse until its PostToolUse, PostToolUseFailure or PermissionDenied. A background
 * one's PostToolUse comes at launch (`tool_response.status: "async_launched"`), so it stays alive
 * until the agent is idle again (`settled`): the status file stays busy while a background
 * sub-agent runs (docs/claude-code-cli.md, Sub-agents). Keyed by the agent the request
 * authenticated as, so a sub-agent's own hooks (which carry its `agent_id`) count for its parent.
 */
import type { HookInput } from "../server";

export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(["Agent", "Task"]);

export function isSubagentCall(input: HookInput): boolean {
  return typeof input.tool_name === "string" && SUBAGENT_TOOLS.has(input.tool_name);
}

const toolUseIdOf = (input: HookInput): string | undefined =>
  typeof input.tool_use_id === "string" && input.tool_use_id !== "" && input.tool_use_id.length <= 200 ? input.tool_use_id : undefined;

const launchedInBackground = (input: HookInput): boolean => {
  const response = input.tool_response;
  return typeof response === "object" && response !== null && (response as Record<string, unknown>).status === "async_launched";
};

export class LiveSubagents {
  private readonly byAgent = new Map<string, Set<string>>();

  count(agentId: string): number {
    return this.byAgent.get(agentId)?.size ?? 0;
  }

  /** A sub-agent call allowed to start. A call without a tool_use_id still counts (under a made-up key). */
  started(agentId: string, input: HookInput): void {
    const live = this.byAgent.get(agentId) ?? new Set<string>();
    live.add(toolUseIdOf(input) ?? `unnamed-${live.size}-${Math.random()}`);
    this.byAgent.set(agentId, live);
  }

  /** The other hooks of an agent: a sub-agent call that ended is not alive any more. */
  observe(agentId: string, input: HookInput): void {
    if (!isSubagentCall(input)) return;
    const id = toolUseIdOf(input);
    const live = this.byAgent.get(agentId);
    if (!id || !live) return;
    const ended = input.hook_event_name === "PostToolUseFailure" || input.hook_event_name === "PermissionDenied";
    if (ended || (input.hook_event_name === "PostToolUse" && !launchedInBackground(input))) live.delete(id);
  }

  /** The agent is idle: none of its sub-agents runs, background ones included. */
  settled(agentId: string): void {
    this.byAgent.delete(agentId);
  }
}

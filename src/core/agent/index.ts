/** src/core/agent: its public face — what the rest of Arcadia may import from it. */
export { AGENT_STATUSES, type AgentState, initialAgentState, reduceAgent, TURN_OUTCOMES } from "./agentState";
export { contextUsage } from "./contextUsage";
export { type ToolWait } from "./hookRows";
export { type ShownRow, shownRows } from "./shownRows";
export { foldToolCall, type ToolCall } from "./toolCalls";

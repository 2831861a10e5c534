/** src/core/agent: its public face — what the rest of Arcadia may import from it. */
export { type AgentState, initialAgentState, reduceAgent } from "./agentState";
export { contextUsage } from "./contextUsage";
export { type ToolWait } from "./hookRows";
export { type ShownRow, shownRows } from "./shownRows";
export { foldToolCall, type ToolCall } from "./toolCalls";

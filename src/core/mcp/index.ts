/** src/core/mcp: its public face — what the rest of Arcadia may import from it. */
export { type Approval, ApprovalQueue, type ApprovalWording } from "./approvalQueue";
export { StillRunningCommands } from "./stillRunningCommands";
export { type CallContext, type CompleteBehaviour, type LinkedResources, ToolCallTracker, type TrackedCall } from "./toolCallTracker";
export { jsonResult, type ToolResult } from "./toolResult";
export { ToolUseMatcher } from "./toolUseMatcher";

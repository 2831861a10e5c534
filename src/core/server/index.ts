/** The window's loopback server (MCP at /mcp, hooks at /hooks): its public surface. */
export { AGENT_HEADER, agentHeaders } from "./auth";
export { DEFAULT_MAX_BODY_BYTES, type LoopbackServerOptions, type RunningLoopbackServer, startLoopbackServer } from "./startServer";
export { MCP_PATH } from "./mcp/mcpRoute";
export { type AddTool, type RegisterTools, type ToolSpec } from "./mcp/toolRegistrar";
export { DEFAULT_PROGRESS_INTERVAL_MS } from "./mcp/progressKeepAlive";
export { type HookEndpoint, type HookInput, type HookRequest, HOOKS_PATH } from "./hooks/hookRoute";
export { HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventName, isHookEventName, otherHookEvent } from "./hooks/hookEvents";
export { writeMcpConfigFile } from "./mcpConfigFile";

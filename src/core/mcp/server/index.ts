/** The embedded MCP server's public surface. */
export { AGENT_HEADER, type AddTool, type RegisterTools, type ToolSpec } from "./toolRegistrar";
export { DEFAULT_MAX_BODY_BYTES, MCP_PATH, type RunningMcpServer, startMcpServer, type StartMcpServerOptions } from "./startMcpServer";
export { DEFAULT_PROGRESS_INTERVAL_MS } from "./progressKeepAlive";
export { type HookEndpoint, type HookInput, type HookRequest, HOOKS_PATH } from "./hookRoute";

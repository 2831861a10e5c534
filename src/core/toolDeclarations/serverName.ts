/**
 * The name an agent's MCP config gives Arcadia's server. The CLI then calls our tools
 * `mcp__arcadia__<tool>`: what the hook settings pre-allow and what the live board matches
 * transcript tool_uses by.
 */
export const ARCADIA_MCP_SERVER_NAME = "arcadia";

/** The transcript name of one of our tools is this + the tool's name. */
export const ARCADIA_TOOL_PREFIX = `mcp__${ARCADIA_MCP_SERVER_NAME}__`;

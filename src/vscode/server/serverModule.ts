/**
 * What Arcadia loads only when its loopback server starts (the first agent it launches, or agents
 * of its own found after a window reload): the MCP SDK, zod and the tools' schemas. They are most
 * of Arcadia's code and most of its load time, which every window would otherwise pay at startup.
 * esbuild builds this file as dist/server.js beside dist/extension.js (see esbuild.js).
 */
export { startLoopbackServer } from "../../core/server";
export { registerArcadiaTools } from "../../core/tools";

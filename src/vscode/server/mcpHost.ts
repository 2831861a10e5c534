/**
 * Starts the window's loopback server (MCP at /mcp, Claude Code's hooks at /hooks) on the port and
 * window secret it had before a window reload, so agents started before the reload keep their tools and
 * hooks. If that port is taken now, a free one: agents started from now on work, older ones are
 * told in the log. The server's code (dist/server.js) is loaded here, on first use, not at
 * activation.
 */
import type * as vscode from "vscode";
import type { Log } from "../../agents/ports";
import type { RunningLoopbackServer, LoopbackServerOptions } from "../../core/server";
import type { ToolPorts } from "../../core/tools";
import { loadServerIdentity, saveServerIdentity } from "./serverIdentity";
import { errorMessage } from "../../core/util";

const PORT_ATTEMPTS = 4;
const PORT_RETRY_MS = 500;

type ServerModule = typeof import("./serverModule");

/** In the bundle this require is dist/server.js (esbuild.js rewrites it); unbundled, the source. */
function loadServerModule(): ServerModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, from a bundle of its own
  return require("./serverModule") as ServerModule;
}

export interface ArcadiaServerOptions extends Omit<LoopbackServerOptions, "port" | "windowSecret" | "log" | "registerTools"> {
  ports: ToolPorts;
}

export async function startArcadiaServer(
  context: vscode.ExtensionContext,
  log: Log,
  serverOptions: ArcadiaServerOptions,
): Promise<RunningLoopbackServer | undefined> {
  const loadStarted = performance.now();
  let startLoopbackServer: ServerModule["startLoopbackServer"];
  let options: Omit<LoopbackServerOptions, "port" | "windowSecret" | "log">;
  try {
    const loaded = loadServerModule();
    const { ports, ...rest } = serverOptions;
    startLoopbackServer = loaded.startLoopbackServer;
    options = { ...rest, registerTools: (addTool) => loaded.registerArcadiaTools(addTool, ports) };
  } catch (err) {
    log.error(
      `Arcadia's MCP server could not be loaded (${errorMessage(err)}); agents start without Arcadia's tools and panel prompts. Reinstalling the ` +
        `extension may help.`,
    );
    return undefined;
  }
  log.info(`MCP server code loaded in ${(performance.now() - loadStarted).toFixed(1)} ms`);
  const saved = await loadServerIdentity(context.workspaceState, context.secrets);
  if (saved.hadSharedToken)
    log.warn("Arcadia now gives each agent its own token: agents started by an older version lose Arcadia's tools and panel prompts until restarted.");
  const logLine = (m: string) => log.info(m);
  let server: RunningLoopbackServer | undefined;
  if (saved.port !== undefined && saved.windowSecret !== undefined) {
    // The window's previous extension host may still be letting the port go: try a few times.
    for (let attempt = 1; !server && attempt <= PORT_ATTEMPTS; attempt++) {
      try {
        server = await startLoopbackServer({ ...options, port: saved.port, windowSecret: saved.windowSecret, log: logLine });
      } catch (err) {
        if (attempt < PORT_ATTEMPTS) await new Promise((r) => setTimeout(r, PORT_RETRY_MS));
        else log.warn(`${errorMessage(err)}; using a free port. Agents started before the reload lose Arcadia's tools and panel prompts until restarted.`);
      }
    }
  }
  try {
    server ??= await startLoopbackServer({ ...options, windowSecret: saved.windowSecret, log: logLine });
  } catch (err) {
    log.error(`Arcadia's MCP server could not start (${errorMessage(err)}); agents start without Arcadia's tools and panel prompts.`);
    return undefined;
  }
  await saveServerIdentity(context.workspaceState, context.secrets, server.port, server.windowSecret);
  return server;
}

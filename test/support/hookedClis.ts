/**
 * Real CLIs launched as Arcadia launches them from VS Code, for the real-CLI hook tests: a loopback
 * server (hooks and MCP), the rig's bridge into the CLI's network namespace, and per agent its hook
 * settings file (curl + sh) passed with `--settings`. The tests differ in their hook endpoint and
 * their arguments, never in this plumbing.
 */
import which from "which";
import { type HookSettingsFile, writeHookSettingsFile } from "../../src/core/hooks/hookSettingsFile";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { type LoopbackServerOptions, type RunningLoopbackServer, startLoopbackServer } from "../../src/core/server";
import type { InteractiveSession, LaunchOptions, Rig } from "../rig/claude-rig.js";
import { type LoopbackBridge, loopbackBridge } from "../rig/loopback-bridge.js";

export interface HookedClis {
  server: RunningLoopbackServer;
  /** Starts a CLI for `agentId` with its own hook file (and `options.args` after it). */
  launch(agentId: string, options?: Pick<LaunchOptions, "args" | "env">): Promise<InteractiveSession>;
  /** Removes the hook files, closes the bridge and the server (the rig is the caller's). */
  dispose(): Promise<void>;
}

/** The server takes `options` (its tracker defaults to a fresh one; no MCP tools unless given). */
export async function startHookedClis(
  rig: Rig,
  options: Omit<LoopbackServerOptions, "tracker" | "registerTools"> & Partial<Pick<LoopbackServerOptions, "tracker" | "registerTools">>,
): Promise<HookedClis> {
  const server = await startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, log: () => undefined, ...options });
  let bridge: LoopbackBridge;
  try {
    bridge = await loopbackBridge(server.port, rig.root);
  } catch (err) {
    await server.close();
    throw err;
  }
  const files: HookSettingsFile[] = [];
  return {
    server,
    async launch(agentId, launch = {}) {
      const [curl, sh] = [await which("curl", { nothrow: true }), await which("sh", { nothrow: true })];
      if (!curl || !sh) throw new Error("curl and sh must be on the PATH (.ci/run installs curl)");
      const file = await writeHookSettingsFile(server.hooksUrl, server.tokenFor(agentId), agentId, rig.root, curl, sh);
      files.push(file);
      return rig.startInteractive({ args: ["--settings", file.path, ...(launch.args ?? [])], env: launch.env, sidecar: bridge.sidecar() });
    },
    async dispose() {
      for (const f of files.splice(0)) await f.remove();
      await bridge.close();
      await server.close();
    },
  };
}

/**
 * What the real CLI 2.1.330 does with a hook that cannot reach Arcadia (the window reloading, or
 * closed): checked, not assumed, because the answer decides the form of the hooks Arcadia passes.
 * Each launch's hooks point at a port where nothing listens (connection refused); a Bash tool runs
 * (read-only, no prompt); the screen and the time the turn takes are compared.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import which from "which";
import { writeHookSettingsFile } from "../../src/core/hooks/hookSettingsFile";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { type HookInput, startLoopbackServer } from "../../src/core/server";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { loopbackBridge } from "../rig/loopback-bridge.js";
import { blocks } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("hooks that cannot reach Arcadia, with the real CLI");
/** Nothing listens here inside the namespace: every connection is refused at once. */
const CLOSED = "http://127.0.0.1:9/hooks";
const figures: string[] = [];

describe.skipIf(!available)("a hook that cannot reach Arcadia (real CLI)", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: [
          { match: "Echo once", steps: [{ tools: [{ name: "Bash", input: { command: "echo hooked-run", description: "Print" } }] }, { text: "Echoed." }] },
          {
            match: "Stamp once",
            steps: [{ tools: [{ name: "Bash", input: { command: "date +stamp-%s%3N", description: "Print the time" } }] }, { text: "Stamped." }],
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await rig?.dispose();
    if (figures.length) console.log(`hooks that cannot reach Arcadia (this machine):\n  ${figures.join("\n  ")}`);
  });

  async function turnWith(name: string, hooks: Record<string, unknown>): Promise<{ screen: string; ms: number }> {
    const settings = join(rig.root, `${name}.settings.json`);
    writeFileSync(settings, JSON.stringify({ hooks }));
    const session = await rig.startInteractive({ args: ["--settings", settings] });
    const started = performance.now();
    await session.submit("Echo once");
    await session.waitForScreen(/Echoed\./);
    await session.waitForIdle();
    const ms = performance.now() - started;
    const screen = session.screen.text();
    figures.push(`${name}: turn ${Math.round(ms)} ms`);
    await session.dispose();
    return { screen, ms };
  }

  const HOOK_NOISE = /hook (?:failed|error)|hook.*(?:ECONNREFUSED|exit code)/i;
  const noise = (screen: string) =>
    screen
      .split("\n")
      .filter((l) => HOOK_NOISE.test(l))
      .map((l) => l.trim());

  it("http hooks print 'hook failed' under the tool for each event when refused", async () => {
    const http = [{ hooks: [{ type: "http", url: CLOSED, timeout: 10 }] }];
    const { screen } = await turnWith("http", { PreToolUse: http, PostToolUse: http });
    figures.push(`http, refused: ${JSON.stringify(noise(screen))}`);
    expect(noise(screen).join("\n")).toMatch(/PreToolUse:Bash hook failed[\s\S]*PostToolUse:Bash hook failed/);
  });

  it("async command hooks (exec form) print nothing, whether they exit 0 or fail", async () => {
    const quiet = join(rig.root, "quiet-hook.cjs");
    writeFileSync(quiet, "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));\n");
    const failing = join(rig.root, "failing-hook.cjs");
    writeFileSync(failing, "process.stdin.resume(); process.stdin.on('end', () => { console.error('boom'); process.exit(1); });\n");
    const hook = (script: string) => [{ hooks: [{ type: "command", command: process.execPath, args: [script], async: true }] }];
    const ok = await turnWith("async command, exit 0", { PreToolUse: hook(quiet), PostToolUse: hook(quiet) });
    const bad = await turnWith("async command, exit 1", { PreToolUse: hook(failing), PostToolUse: hook(failing) });
    figures.push(`async command exit 1: ${JSON.stringify(noise(bad.screen))}`);
    expect(noise(ok.screen)).toEqual([]);
    expect(noise(bad.screen)).toEqual([]);
  });

  it("Arcadia's own hook file with curl and sh: every tool reaches Arcadia (same tool_use ids), PreToolUse before the tool runs, and nothing prints once Arcadia is gone", async () => {
    // .ci/run installs curl; a machine without it fails here rather than skipping the check.
    const curl = await which("curl", { nothrow: true });
    const sh = await which("sh", { nothrow: true });
    expect(curl, "curl is not on the PATH (Arcadia's quiet hooks need it; .ci/run installs it)").toBeTruthy();
    if (!curl || !sh) throw new Error("sh is not on the PATH");
    const inputs: HookInput[] = [];
    const arrivedAt = new Map<HookInput, number>();
    const hooks = ({ input }: { input: HookInput }) => (inputs.push(input), arrivedAt.set(input, Date.now()), {});
    const server = await startLoopbackServer({ tracker: new ToolCallTracker(), registerTools: () => undefined, hooks, log: () => undefined });
    const bridge = await loopbackBridge(server.port, rig.root);
    const file = await writeHookSettingsFile(server.hooksUrl, server.tokenFor("agent-q"), "agent-q", rig.root, curl, sh);
    try {
      const session = await rig.startInteractive({ args: ["--settings", file.path], sidecar: bridge.sidecar() });
      await session.submit("Stamp once");
      await session.waitForScreen(/Stamped\./);
      await session.waitForIdle();
      // The CLI may flush the tool's result to the transcript after the screen shows the reply.
      const stamp = () => /stamp-(\d+)/.exec(JSON.stringify(session.records()))?.[1];
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && !(inputs.some((i) => i.hook_event_name === "PostToolUse") && stamp())) await new Promise((r) => setTimeout(r, 50));
      const toolUse = session.records().flatMap((r) => blocks(r).filter((b) => b.type === "tool_use"))[0];
      const ofTool = inputs.filter((i) => i.tool_use_id === toolUse?.id);
      expect(ofTool.map((i) => i.hook_event_name)).toEqual(["PreToolUse", "PostToolUse"]);
      // The command prints the time it ran: PreToolUse (synchronous) reached Arcadia before that.
      const ranAt = Number(stamp());
      const preAt = arrivedAt.get(ofTool[0]!)!;
      figures.push(`Arcadia's hook file: PreToolUse reached Arcadia ${ranAt - preAt} ms before the command ran`);
      expect(ranAt).toBeGreaterThan(0);
      expect(preAt).toBeLessThanOrEqual(ranAt);
      // Arcadia goes away (a window reload): the next tool's hooks cannot connect, and say nothing.
      await server.close();
      await session.submit("/clear");
      await session.waitForIdle();
      await session.submit("Echo once");
      await session.waitForScreen(/Echoed\./);
      await session.waitForIdle();
      const afterGone = noise(session.screen.text());
      figures.push(`Arcadia's hook file, Arcadia gone: ${JSON.stringify(afterGone)}`);
      expect(afterGone).toEqual([]);
      await session.dispose();
    } finally {
      await file.remove();
      await bridge.close();
      await server.close().catch(() => undefined);
    }
  });
});

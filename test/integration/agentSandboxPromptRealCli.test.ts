/**
 * The whole path of an agent Arcadia launches sandboxed, with the real CLI in an interactive
 * session: Arcadia's own `--settings` file (its hooks to Arcadia's real server and broker, and the
 * sandbox block of core/agentSandbox) in one file, as the extension writes it.
 * - an ordinary command that writes in the workspace runs in the sandbox with no request at all;
 * - a command that asks to leave the sandbox (`dangerouslyDisableSandbox`) reaches Arcadia's broker
 *   as a permission request (what the card shows, with the reason made from its description) and
 *   does not run until Allow; Allow from the panel runs it, outside the sandbox.
 * With the sandbox on, the CLI sends http hooks through its sandbox proxy, which refuses loopback:
 * the permission request never arrived through an http hook; it does through curl (hookSettingsFile.ts).
 * Needs bubblewrap and socat; elsewhere the suite skips with the reason.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import which from "which";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agentSandboxSettings, leaveSandboxReason, readUserSandboxSettings, toolchainFolders } from "../../src/core/agentSandbox";
import { type HookSettingsFile, writeHookSettingsFile } from "../../src/core/hooks/hookSettingsFile";
import { type PendingPermission, PermissionBroker } from "../../src/core/hooks/permissionBroker";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { type HookEndpoint, type RunningLoopbackServer, startLoopbackServer } from "../../src/core/server";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { type LoopbackBridge, loopbackBridge } from "../rig/loopback-bridge.js";
import { blocks } from "../rig/transcripts.js";
import { realCliSandboxAvailable } from "../support/realCli";
import { waitForChange } from "../support/waitFor";

const SUITE = "a sandboxed agent's prompts through Arcadia's hooks (real CLI)";
const available = realCliSandboxAvailable(SUITE);
const AGENT = "agent-1";
const WHY = "Write the build stamp next to the workspace";

describe.skipIf(!available)(SUITE, () => {
  let rig: Rig;
  let server: RunningLoopbackServer;
  let broker: PermissionBroker;
  let bridge: LoopbackBridge;
  let settings: HookSettingsFile;
  /** Every hook that reached Arcadia's server: `<event>:<tool input>`. */
  const heard: string[] = [];
  const outsideFile = () => join(rig.root, "outside", "stamp.txt");

  beforeAll(async () => {
    rig = await createRig({
      script: ({ root }) => ({
        conversations: [
          {
            match: "Write inside",
            steps: [{ tools: [{ name: "Bash", input: { command: "echo in > inside.txt", description: "Write a file" } }] }, { text: "Wrote inside." }],
          },
          {
            match: "Write outside",
            steps: [
              {
                tools: [
                  { name: "Bash", input: { command: `echo out > ${join(root, "outside", "stamp.txt")}`, description: WHY, dangerouslyDisableSandbox: true } },
                ],
              },
              { text: "Wrote outside." },
            ],
          },
        ],
      }),
    });
    mkdirSync(join(rig.root, "outside"));
    broker = new PermissionBroker({ log: (m) => console.log(`broker: ${m}`) });
    const hooks: HookEndpoint = (request) => (
      heard.push(`${request.input.hook_event_name}:${JSON.stringify(request.input.tool_input ?? {})}`),
      broker.handleHook(request)
    );
    server = await startLoopbackServer({
      tracker: new ToolCallTracker(),
      registerTools: () => undefined,
      hooks,
      log: (m) => console.log(`server: ${m}`),
    });
    bridge = await loopbackBridge(server.port, rig.root);
    const home = rig.rigHome.home;
    const sandbox = agentSandboxSettings({
      choice: "on",
      agentFolder: rig.workspace,
      home,
      allowedDomains: [],
      readableFolders: await toolchainFolders(process.env.PATH ?? ""),
      user: await readUserSandboxSettings(home, rig.workspace),
    });
    // curl and sh as the extension finds them (launchFiles.ts): a sandboxed agent's prompts go through curl.
    const [curl, sh] = [which.sync("curl", { nothrow: true }) ?? undefined, which.sync("sh", { nothrow: true }) ?? undefined];
    settings = await writeHookSettingsFile(server.hooksUrl, server.tokenFor(AGENT), AGENT, rig.root, curl, sh, sandbox);
  });

  afterAll(async () => {
    broker?.dispose();
    await settings?.remove();
    await bridge?.close();
    await server?.close();
    await rig?.dispose();
  });

  const launch = () => rig.startInteractive({ args: ["--settings", settings.path], sidecar: bridge.sidecar() });
  const resultText = (s: Awaited<ReturnType<typeof launch>>) =>
    s
      .records()
      .flatMap((r) => blocks(r).filter((b) => b.type === "tool_result"))
      .map((b) => JSON.stringify(b.content));

  it("an ordinary write in the workspace runs in the sandbox with no permission request", async () => {
    const s = await launch();
    await s.submit("Write inside");
    await s.waitForRecords((r) => blocks(r).some((b) => b.type === "text" && String(b.text).includes("Wrote inside.")), { what: "the turn's end" });
    expect(broker.pending(AGENT)).toEqual([]);
    expect(existsSync(join(rig.workspace, "inside.txt"))).toBe(true);
    // The hooks did reach Arcadia (the card's row comes from them), and none was a permission request.
    await vi.waitFor(() => expect(heard.some((h) => h.startsWith("PostToolUse:"))).toBe(true), { timeout: 10_000 });
    expect(heard.filter((h) => h.includes("inside.txt")).map((h) => h.split(":")[0])).toEqual(["PreToolUse", "PostToolUse"]);
    await s.dispose();
  });

  it("a request to leave the sandbox is a permission request on the card, with its reason; Allow runs it outside", async () => {
    const s = await launch();
    await s.submit("Write outside");
    const [request] = await waitForChange<PendingPermission[]>(
      (on) => broker.onDidChange(on).dispose,
      () => {
        const mine = broker.pending(AGENT);
        return mine.length > 0 && mine;
      },
      30_000,
      "the permission request",
    );
    expect(request).toMatchObject({ toolName: "Bash", toolInput: { dangerouslyDisableSandbox: true, description: WHY } });
    expect(leaveSandboxReason(request!.toolName, request!.toolInput)).toContain(WHY);
    expect(existsSync(outsideFile())).toBe(false);
    expect(broker.decide(request!.id, "allow")).toBe(true);
    await s.waitForRecords((r) => blocks(r).some((b) => b.type === "text" && String(b.text).includes("Wrote outside.")), { what: "the turn's end" });
    expect(existsSync(outsideFile()), resultText(s).join("\n")).toBe(true);
    await s.dispose();
  });
});

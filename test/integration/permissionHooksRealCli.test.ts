/**
 * Claude Code's own permission prompts, answered through the HTTP hooks Arcadia passes with
 * `--settings`: the real CLI 2.1.330 in its loopback namespace, Arcadia's real server and broker
 * in this process (reached through the rig's loopback bridge, so the test holds the broker).
 * Latencies are printed, never asserted.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookSettingsFile, writeHookSettingsFile } from "../../src/core/hooks/hookSettingsFile";
import { type PendingPermission, PermissionBroker, type PermissionChange } from "../../src/core/hooks/permissionBroker";
import { type RunningLoopbackServer, startLoopbackServer } from "../../src/core/server";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { toolResultOutcome } from "../../src/core/transcript/toolOutcome";
import { createRig, type InteractiveSession, type Rig } from "../rig/claude-rig.js";
import { PERMISSION_PROMPT } from "../rig/interactive.js";
import { type LoopbackBridge, loopbackBridge } from "../rig/loopback-bridge.js";
import { blocks, isToolUse, isUserText, type TranscriptRecord } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";
import { waitForChange } from "../support/waitFor";

const available = realCliAvailable("permission prompts answered through Arcadia's hooks");
const AGENT = "agent-1";
const bash = (command: string) => ({ name: "Bash", input: { command, description: `Run ${command}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Figures printed at the end (ms). */
const figures: Record<string, number[]> = {};
const note = (what: string, ms: number) => (figures[what] ??= []).push(Math.round(ms * 10) / 10);

describe.skipIf(!available)("permission prompts answered through Arcadia's hooks (real CLI)", () => {
  let rig: Rig;
  let server: RunningLoopbackServer;
  let broker: PermissionBroker;
  let bridge: LoopbackBridge;
  let settings: HookSettingsFile;
  const changes: (PermissionChange & { at: number })[] = [];
  const outside = (name: string) => join(rig.root, "outside", name);

  beforeAll(async () => {
    rig = await createRig({
      script: ({ root }) => ({
        conversations: [
          { match: "Stamp from the panel", steps: [{ tools: [bash("touch allowed.txt && date +%s%N > allowed.stamp")] }, { text: "Stamped." }] },
          { match: "Deny from the panel", steps: [{ tools: [bash("touch denied.txt")] }, { text: "Not reached." }] },
          { match: "Answer in the terminal", steps: [{ tools: [bash("touch terminal.txt")] }, { text: "Done in the terminal." }] },
          { match: "Escape in the terminal", steps: [{ tools: [bash("touch escaped.txt")] }, { text: "Not reached." }] },
          {
            match: "Read two files outside",
            steps: [
              {
                tools: [
                  { name: "Read", input: { file_path: join(root, "outside", "a.txt") } },
                  { name: "Read", input: { file_path: join(root, "outside", "b.txt") } },
                ],
              },
              { text: "Read both." },
            ],
          },
          { match: "Always allow touching", steps: [{ tools: [bash("touch one.txt")] }, { tools: [bash("touch two.txt")] }, { text: "Both touched." }] },
          { match: "Nobody is watching", steps: [{ tools: [bash("touch unwatched.txt")] }, { text: "Done unwatched." }] },
          { match: "Leave my settings alone", steps: [{ tools: [bash("touch settings-check.txt")] }, { text: "Checked." }] },
        ],
      }),
    });
    mkdirSync(join(rig.root, "outside"));
    writeFileSync(outside("a.txt"), "alpha\n");
    writeFileSync(outside("b.txt"), "beta\n");
    broker = new PermissionBroker({ log: (m) => console.log(`broker: ${m}`) });
    broker.onDidChange((c) => changes.push({ ...c, at: performance.now() }));
    server = await startLoopbackServer({
      tracker: new ToolCallTracker(),
      registerTools: () => undefined,
      hooks: broker.handleHook,
      log: (m) => console.log(`server: ${m}`),
    });
    bridge = await loopbackBridge(server.port, rig.root);
    settings = await writeHookSettingsFile(server.hooksUrl, server.tokenFor(AGENT), AGENT, rig.root);
  });

  afterAll(async () => {
    broker?.dispose();
    await settings?.remove();
    await bridge?.close();
    await server?.close();
    await rig?.dispose();
    const rows = Object.entries(figures).map(([what, ms]) => `  ${what}: ${ms.join(", ")} ms`);
    if (rows.length) console.log(`permission hooks with the real CLI (this machine):\n${rows.join("\n")}`);
  });

  const launch = () => rig.startInteractive({ args: ["--settings", settings.path], sidecar: bridge.sidecar() });

  function nextAdded(sessionId: string, count = 1): Promise<PendingPermission[]> {
    return waitForChange(
      (on) => broker.onDidChange(on).dispose,
      () => {
        const mine = broker.pending(AGENT).filter((p) => p.sessionId === sessionId);
        return mine.length >= count && mine;
      },
      30_000,
      `${count} pending permission request(s)`,
    );
  }

  function removal(id: string): Promise<PermissionChange & { at: number }> {
    return waitForChange(
      (on) => broker.onDidChange(on).dispose,
      () => changes.find((c) => c.type === "removed" && c.request.id === id),
      30_000,
      `request ${id} to go`,
    );
  }

  const toolUseIds = (s: InteractiveSession, name: string) =>
    s.records().flatMap((r) =>
      blocks(r)
        .filter((b) => b.type === "tool_use" && b.name === name)
        .map((b) => b.id as string),
    );

  async function resultOf(s: InteractiveSession, toolUseId: string): Promise<{ record: TranscriptRecord; block: Record<string, unknown> }> {
    const records = await s.waitForRecords((r) => blocks(r).some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId), {
      what: `the result of ${toolUseId}`,
    });
    const record = records.find((r) => blocks(r).some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId))!;
    return { record, block: blocks(record).find((b) => b.tool_use_id === toolUseId)! };
  }

  /** Milliseconds (performance clock) at which the agent's status file first says `waiting`. */
  function watchWaiting(s: InteractiveSession): { at: () => number | undefined; stop: () => void } {
    let at: number | undefined;
    const timer = setInterval(() => {
      if (at !== undefined || !existsSync(s.sessionsDir())) return;
      for (const f of readdirSync(s.sessionsDir()).filter((n) => /^\d+\.json$/.test(n))) {
        try {
          const status = JSON.parse(readFileSync(join(s.sessionsDir(), f), "utf8")) as { sessionId?: string; status?: string };
          if (status.sessionId === s.sessionId && status.status === "waiting") at = performance.now();
        } catch {
          // Being rewritten.
        }
      }
    }, 2);
    return { at: () => at, stop: () => clearInterval(timer) };
  }

  it("shows a prompt as a pending request with its tool_use id; Allow from the panel runs the tool (source: hook)", async () => {
    const s = await launch();
    const waiting = watchWaiting(s);
    await s.submit("Stamp from the panel");
    const [request] = await nextAdded(s.sessionId);
    const addedAt = changes.find((c) => c.type === "added" && c.request.id === request!.id)!.at;
    await s.waitForScreen(PERMISSION_PROMPT);
    note("hook request → prompt drawn in the terminal (screen model)", performance.now() - addedAt);
    await s.waitForRecords(isToolUse("Bash"), { what: "the Bash tool_use record" });
    const [toolUseId] = toolUseIds(s, "Bash");
    expect(request).toMatchObject({
      agentId: AGENT,
      toolUseId,
      toolName: "Bash",
      subject: "Bash: touch allowed.txt && date +%s%N > allowed.stamp",
      canAlwaysAllow: true,
    });
    await sleep(200);
    waiting.stop();
    const waitingAt = waiting.at();
    if (waitingAt !== undefined) note("hook request → status file `waiting` (2 ms polling)", waitingAt - addedAt);

    const clickEpoch = Date.now();
    const clickAt = performance.now();
    expect(broker.decide(request!.id, "allow")).toBe(true);
    const { record, block } = await resultOf(s, toolUseId!);
    note("click Allow → tool result in the transcript", performance.now() - clickAt);
    const stampNs = BigInt(readFileSync(join(rig.workspace, "allowed.stamp"), "utf8").trim());
    note("click Allow → the command starts (its own clock)", Number(stampNs / 1000n) / 1000 - clickEpoch);

    expect(block.is_error ?? false).toBe(false);
    expect(record.permissionDecision).toMatchObject({ decision: "accept", source: "hook" });
    expect(existsSync(join(rig.workspace, "allowed.txt"))).toBe(true);
    expect(broker.pending()).toEqual([]);
    expect(broker.decide(request!.id, "deny")).toBe(false);
    await s.dispose();
  });

  it("Deny from the panel rejects the call like 'No' in the terminal, and nothing runs", async () => {
    const s = await launch();
    await s.submit("Deny from the panel");
    const [request] = await nextAdded(s.sessionId);
    expect(broker.decide(request!.id, "deny")).toBe(true);
    const { record, block } = await resultOf(s, request!.toolUseId!);
    expect(block.is_error).toBe(true);
    expect(record.toolUseResult).toBe("User rejected tool use");
    expect(toolResultOutcome(block, record.toolUseResult)).toBe("interrupted");
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { what: "the interrupt record" });
    expect(existsSync(join(rig.workspace, "denied.txt"))).toBe(false);
    await s.dispose();
  });

  it("answering 'Yes' in the terminal first clears the pending request, and a late click does nothing", async () => {
    const s = await launch();
    await s.submit("Answer in the terminal");
    const [request] = await nextAdded(s.sessionId);
    await s.waitForScreen(PERMISSION_PROMPT);
    await sleep(150);
    const pressAt = performance.now();
    s.press("1");
    const removed = await removal(request!.id);
    note("'1' in the terminal → pending request gone (PostToolUse)", removed.at - pressAt);
    expect(removed).toMatchObject({ reason: "answeredElsewhere" });
    expect(broker.decide(request!.id, "deny")).toBe(false);
    const { record } = await resultOf(s, request!.toolUseId!);
    expect(record.permissionDecision).toMatchObject({ decision: "accept", source: "user_temporary" });
    expect(existsSync(join(rig.workspace, "terminal.txt"))).toBe(true);
    await s.dispose();
  });

  it("Escape in the terminal first clears the pending request (the CLI aborts the hook)", async () => {
    const s = await launch();
    await s.submit("Escape in the terminal");
    const [request] = await nextAdded(s.sessionId);
    await s.waitForScreen(PERMISSION_PROMPT);
    await sleep(150);
    const pressAt = performance.now();
    s.pressEscape();
    const removed = await removal(request!.id);
    note("Escape in the terminal → pending request gone (hook aborted)", removed.at - pressAt);
    expect(removed).toMatchObject({ reason: "answeredElsewhere" });
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { what: "the interrupt record" });
    expect(existsSync(join(rig.workspace, "escaped.txt"))).toBe(false);
    await s.dispose();
  });

  it("matches two parallel calls of one tool with different inputs to their own tool_use ids, and each answer reaches its own call", async () => {
    const s = await launch();
    await s.submit("Read two files outside");
    const pending = await nextAdded(s.sessionId, 2);
    await s.waitForRecords(isToolUse("Read"), { count: 2, what: "both Read tool_use records" });
    const ids = toolUseIds(s, "Read");
    const idOf = (file: string) => {
      const use = s
        .records()
        .flatMap(blocks)
        .find((b) => b.type === "tool_use" && (b.input as { file_path?: string }).file_path === outside(file));
      return use?.id;
    };
    expect(ids).toHaveLength(2);
    const byFile = Object.fromEntries(pending.map((p) => [(p.toolInput as { file_path: string }).file_path, p]));
    expect(byFile[outside("a.txt")]!.toolUseId).toBe(idOf("a.txt"));
    expect(byFile[outside("b.txt")]!.toolUseId).toBe(idOf("b.txt"));
    // The second one first, while the terminal still shows the first one's prompt. (A deny would
    // interrupt the whole turn, the other call too: `interrupt: true`, like "No" in the terminal.)
    expect(broker.decide(byFile[outside("b.txt")]!.id, "allow")).toBe(true);
    await sleep(300);
    expect(broker.decide(byFile[outside("a.txt")]!.id, "allow")).toBe(true);
    for (const [file, text] of [
      ["a.txt", "alpha"],
      ["b.txt", "beta"],
    ] as const) {
      const { record, block } = await resultOf(s, idOf(file) as string);
      expect(block.is_error ?? false).toBe(false);
      expect(JSON.stringify(block.content)).toContain(text);
      expect(record.permissionDecision).toMatchObject({ decision: "accept", source: "hook" });
    }
    await s.dispose();
  });

  it("Always allow applies the CLI's own suggestion: the next matching call is not asked again", async () => {
    const s = await launch();
    await s.submit("Always allow touching");
    const [request] = await nextAdded(s.sessionId);
    expect(request!.canAlwaysAllow).toBe(true);
    const before = changes.length;
    expect(broker.decide(request!.id, "alwaysAllow")).toBe(true);
    await s.waitForRecords((r) => r.type === "system" && r.subtype === "turn_duration", { what: "the end of the turn" });
    expect(existsSync(join(rig.workspace, "one.txt"))).toBe(true);
    expect(existsSync(join(rig.workspace, "two.txt"))).toBe(true);
    expect(changes.slice(before).filter((c) => c.type === "added")).toEqual([]);
    await s.waitForRecords(isToolUse("Bash"), { count: 2, what: "both Bash tool_use records" });
    const [, second] = toolUseIds(s, "Bash");
    const { record } = await resultOf(s, second!);
    // Allowed by the rules (or the mode) the first answer added, not by anyone answering a prompt.
    // The CLI records `source: "config"` for a rule and, seen on a slower run, nothing at all
    // when the mode (acceptEdits) let it through.
    const decision = record.permissionDecision as { source?: string } | undefined;
    expect(["hook", "user_temporary", "user_permanent"]).not.toContain(decision?.source);
    await s.dispose();
  });

  it("answers 'no decision' at once when nobody can answer in Arcadia: the terminal prompt works as usual", async () => {
    broker.setAvailable(false);
    try {
      const s = await launch();
      await s.submit("Nobody is watching");
      await s.waitForScreen(PERMISSION_PROMPT);
      await sleep(300);
      expect(broker.pending()).toEqual([]);
      expect(PERMISSION_PROMPT.test(s.screen.text())).toBe(true);
      s.press("1");
      await s.waitForRecords(isToolUse("Bash"), { what: "the Bash tool_use record" });
      const [toolUseId] = toolUseIds(s, "Bash");
      const { record } = await resultOf(s, toolUseId!);
      expect(record.permissionDecision).toMatchObject({ source: "user_temporary" });
      await s.dispose();
    } finally {
      broker.setAvailable(true);
    }
  });

  it("leaves ~/.claude/settings.json byte-identical, and puts nothing of ours into ~/.claude.json", async () => {
    const userSettings = join(rig.home, ".claude", "settings.json");
    writeFileSync(userSettings, `${JSON.stringify({ permissions: { allow: ["Bash(ls:*)"] }, cleanupPeriodDays: 30 }, null, 2)}\n`);
    const userConfig = join(rig.home, ".claude.json");
    const readConfig = () => JSON.parse(readFileSync(userConfig, "utf8")) as Record<string, Record<string, unknown> | undefined>;
    const settingsBefore = readFileSync(userSettings);
    const configBefore = readConfig();

    const s = await launch();
    await s.submit("Leave my settings alone");
    const [request] = await nextAdded(s.sessionId);
    broker.decide(request!.id, "alwaysAllow");
    await s.waitForRecords((r) => r.type === "system" && r.subtype === "turn_duration", { what: "the end of the turn" });
    await s.exit();

    expect(readFileSync(userSettings).equals(settingsBefore)).toBe(true);
    // ~/.claude.json is the CLI's own state file too: it rewrites it on every launch, with or
    // without --settings (numStartups, tips, the project's last-session figures). What must not
    // change is what configures Claude, and nothing of ours may get in.
    const configText = readFileSync(userConfig, "utf8");
    for (const ours of [server.tokenFor(AGENT), server.hooksUrl, settings.path, '"hooks"', "x-arcadia-agent"]) expect(configText).not.toContain(ours);
    const configAfter = readConfig();
    const changed = Object.keys({ ...configBefore, ...configAfter }).filter((k) => JSON.stringify(configBefore[k]) !== JSON.stringify(configAfter[k]));
    console.log(`~/.claude.json keys the CLI itself rewrote during the launch: ${changed.join(", ")}`);
    for (const key of ["mcpServers", "permissions", "env", "hooks"]) expect(configAfter[key]).toEqual(configBefore[key]);
    const project = (c: typeof configBefore) => (c.projects as Record<string, Record<string, unknown>>)[rig.workspace]!;
    for (const key of ["allowedTools", "mcpServers", "enabledMcpjsonServers", "hasTrustDialogAccepted"])
      expect(project(configAfter)[key]).toEqual(project(configBefore)[key]);
    expect(existsSync(join(rig.workspace, ".claude"))).toBe(false);
  });
});

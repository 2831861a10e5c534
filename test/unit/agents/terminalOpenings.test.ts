/**
 * Agents opened together as a new window's first action, terminals in the editor area (issue 33
 * item 14): VS Code starts a terminal's shell only while it is in front, so terminals opened in one
 * go left all but the last without a shell for good, their launches waiting forever and their cards
 * "Starting…". The fake host behaves as VS Code did in test/e2e/fanOutFirst.e2e.test.ts. In the
 * panel, where a shell starts behind others too, they still open together (no wait for each other).
 */
import { mkdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AgentManager } from "../../../src/agents/agent/agentManager";
import { ManualClock } from "../../../src/core/util/clock";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { useTempDirs } from "../../support/tempDir";
import { pollUntil } from "../../support/waitFor";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

const CLAUDE = { command: "claude", args: [] };

function setup(host: FakeTerminalHost, shellWaitMs?: number) {
  const projectDir = tempDir();
  mkdirSync(projectDir, { recursive: true });
  const store = new MemoryStore();
  const log = memoryLog();
  let ids = 0;
  const manager = new AgentManager({
    terminals: host,
    store,
    log,
    projectDirFor: () => projectDir,
    newSessionId: () => `session-${++ids}`,
    newAgentId: () => `agent-${ids}`,
    clock: new ManualClock(),
    ...(shellWaitMs !== undefined ? { shellWaitMs } : {}),
  });
  managers.push(manager);
  return { manager, store, log };
}

/** `promise`, or a failure naming `what` after `ms` (a launch that waits forever fails the test, it does not hang it). */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

describe("agents' terminals opened together", () => {
  it("three opened at once where only the terminal in front gets a shell: all three get one, their cards made and saved with it", async () => {
    const host = new FakeTerminalHost();
    host.editorArea = true;
    host.shellOnlyInFront = true;
    const { manager, store } = setup(host);
    const views = await within(3_000, Promise.all([1, 2, 3].map(() => manager.open(CLAUDE, "/work/app"))), "the three launches");
    expect(views.map((v) => v.name).sort()).toEqual(["Agent #1", "Agent #2", "Agent #3"]);
    const shells = await within(1_000, Promise.all(host.terminals.map((t) => t.processId())), "every terminal's shell");
    expect(shells.every((pid) => typeof pid === "number")).toBe(true);
    // Saved with their shells: after a reload each is found again by its pid.
    await pollUntil(() => store.bindings.filter((b) => b.shellPid !== undefined).length === 3, "the three shells saved", 2_000);
    expect(store.bindings.map((b) => b.shellPid).sort()).toEqual([...shells].sort());
  });

  it("a terminal whose shell never starts holds up neither its launch nor the next one; a shell that starts late is saved", async () => {
    const host = new FakeTerminalHost();
    host.editorArea = true;
    host.noShells = true;
    const { manager, store, log } = setup(host, 50);
    const first = await within(2_000, manager.open(CLAUDE, "/work/app"), "the launch of a terminal without a shell");
    expect(first.name).toBe("Agent #1");
    await pollUntil(() => log.lines.some((l) => l.includes("Agent #1: its terminal has no shell yet")), "the missing shell said", 2_000);
    expect(store.bindings[0]?.shellPid).toBeUndefined();
    host.noShells = false;
    const second = await within(2_000, manager.open(CLAUDE, "/work/app"), "the next launch");
    expect(second.name).toBe("Agent #2");
    await pollUntil(() => store.bindings.find((b) => b.name === "Agent #2")?.shellPid === host.terminals[1]!.pid, "its shell saved", 2_000);
    // The first one's shell comes after all: followed and saved like any other.
    host.terminals[0]!.startShell();
    await pollUntil(() => store.bindings.find((b) => b.name === "Agent #1")?.shellPid === host.terminals[0]!.pid, "the late shell saved", 2_000);
    expect(log.lines.some((l) => l.includes("Agent #1: its terminal's shell started late"))).toBe(true);
  });

  it("in the panel they open together, and each launch returns its card before its shell starts (a caller opening agents in turn waits for none)", async () => {
    const host = new FakeTerminalHost();
    host.noShells = true;
    const { manager, store } = setup(host, 60_000);
    // In turn, as the demo's story and other extensions call Open Claude Code: no shell has started.
    const views = [];
    for (const _ of [1, 2, 3]) views.push(await within(2_000, manager.open(CLAUDE, "/work/app"), "a launch whose shell has not started"));
    expect(views.map((v) => v.name)).toEqual(["Agent #1", "Agent #2", "Agent #3"]);
    expect(host.terminals).toHaveLength(3);
    for (const terminal of host.terminals) terminal.startShell();
    await pollUntil(() => store.bindings.filter((b) => b.shellPid !== undefined).length === 3, "the three shells saved once started", 2_000);
    expect(store.bindings.map((b) => b.shellPid).sort()).toEqual(host.terminals.map((t) => t.pid).sort());
  });

  it("whenShellBound settles only once the new agent is saved with its shell (a race saves its member after that)", async () => {
    const host = new FakeTerminalHost();
    host.noShells = true;
    const { manager, store } = setup(host, 60_000);
    const view = await within(2_000, manager.open(CLAUDE, "/work/app"), "the launch");
    let bound = false;
    const binding = manager.whenShellBound(view.id).then(() => (bound = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(bound).toBe(false);
    host.terminals[0]!.startShell();
    await within(2_000, binding, "the binding once its shell started");
    expect(store.bindings.find((b) => b.agentId === view.id)?.shellPid).toBe(host.terminals[0]!.pid);
    // Another agent, or one long bound: at once.
    await within(500, manager.whenShellBound("no-such-agent"), "an unknown agent");
  });
});

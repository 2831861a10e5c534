/**
 * A prompt Arcadia submits at an agent's idle claude (a race's task, review comments, a rebase
 * request) shows the agent working at once: the CLI draws its spinner as it takes the prompt but
 * writes busy to its status file only once its query starts (0.1–0.7 s later with three CLIs here,
 * ~5 s in a loaded e2e window), and until then the card said "Idle" and the status bar "0 working".
 * The status file is the truth again as soon as it is rewritten; a prompt it never tells of (taken
 * as a paste, not submitted) is idle again after SUBMITTED_HOLD_MS; a task is not "taken" on
 * Arcadia's own Enter alone.
 */
import { mkdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SUBMITTED_HOLD_MS } from "../../../src/agents/agent/agent";
import { AgentManager } from "../../../src/agents/agent/agentManager";
import { statusSummary } from "../../../src/agents/cards/statusSummary";
import { whenTaken } from "../../../src/agents/launch/agentReadiness";
import { ManualClock } from "../../../src/core/util/clock";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts } from "../../../src/shared/protocol";
import { agentViews } from "../../support/agentViews";
import { FakeProcessMonitor, FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

const IDLE = { state: "running", pid: 900, sessionId: "session-1", status: "idle", statusUpdatedAt: 1000 } as const;

async function idleAgent() {
  const projectDir = tempDir();
  mkdirSync(projectDir, { recursive: true });
  const host = new FakeTerminalHost();
  const monitor = new FakeProcessMonitor();
  const clock = new ManualClock();
  const manager = new AgentManager({
    terminals: host,
    store: new MemoryStore(),
    log: memoryLog(),
    projectDirFor: () => projectDir,
    newSessionId: () => "session-1",
    newAgentId: () => "agent-1",
    clock,
    processes: monitor,
  });
  managers.push(manager);
  await manager.open({ command: "claude", args: [] }, "/w");
  const terminal = host.terminals[0]!;
  const until = <T>(probe: () => T | undefined | false, what: string) => waitForChange((cb) => manager.onDidTouch(cb).dispose, probe, 8000, what);
  await until(() => monitor.tracking(terminal.pid!), "the monitor to track the shell");
  monitor.report(terminal.pid!, IDLE);
  const card = () => agentViews(manager)[0]!;
  await until(() => card().status === "waiting" && card().statusSource === "process", "idle at its prompt, by its status file");
  const touches: string[] = [];
  manager.onDidTouch((t) => touches.push(t.agentId));
  return { manager, host, monitor, clock, terminal, card, touches };
}

describe("a prompt Arcadia submits at an idle claude", () => {
  it("shows the agent working at once, before the CLI's status file says busy; the status file rules again once rewritten", async () => {
    const { host, monitor, terminal, card, touches } = await idleAgent();
    expect(statusSummary([card()]).working).toBe(0);
    host.typed(terminal);
    expect(card()).toMatchObject({ status: "active", statusSource: "submitted" });
    // The status bar counts it: "1 working", not "0 working".
    expect(statusSummary([card()]).working).toBe(1);
    expect(touches).toEqual(["agent-1"]);
    // The CLI's query started: busy, exactly.
    monitor.report(terminal.pid!, { ...IDLE, status: "busy", statusUpdatedAt: 1600 });
    expect(card()).toMatchObject({ status: "active", statusSource: "process" });
    // Its turn ended: idle again, at once.
    monitor.report(terminal.pid!, { ...IDLE, status: "idle", statusUpdatedAt: 9000 });
    expect(card()).toMatchObject({ status: "waiting", statusSource: "process" });
  });

  it("a turn over before the status file was read busy (rewritten idle): idle at once", async () => {
    const { host, monitor, terminal, card } = await idleAgent();
    host.typed(terminal);
    monitor.report(terminal.pid!, { ...IDLE, statusUpdatedAt: 1400 });
    expect(card()).toMatchObject({ status: "waiting", statusSource: "process" });
  });

  it("a prompt the CLI never tells of (taken as a paste, not submitted) is idle again after the hold", async () => {
    const { host, clock, terminal, card, touches } = await idleAgent();
    host.typed(terminal);
    clock.advance(SUBMITTED_HOLD_MS - 1);
    expect(card().status).toBe("active");
    clock.advance(1);
    expect(card()).toMatchObject({ status: "waiting", statusSource: "process" });
    expect(touches).toEqual(["agent-1", "agent-1"]);
  });

  it("changes nothing where the CLI is not idle at its prompt: busy, waiting on the user, gone", async () => {
    const { host, monitor, terminal, card, touches } = await idleAgent();
    monitor.report(terminal.pid!, { ...IDLE, status: "waiting", waitingFor: "permission prompt", statusUpdatedAt: 1100 });
    touches.length = 0;
    host.typed(terminal);
    expect(card().status).toBe("needsYou");
    monitor.report(terminal.pid!, { state: "none" });
    host.typed(terminal);
    expect(card().status).toBe("exited");
    expect(touches).toEqual(["agent-1"]);
  });

  it("a claude that exits right after the prompt: exited, not working", async () => {
    const { host, monitor, terminal, card } = await idleAgent();
    host.typed(terminal);
    monitor.report(terminal.pid!, { state: "none" });
    expect(card().status).toBe("exited");
  });
});

describe("a task typed at a new agent", () => {
  it("is not taken on Arcadia's own Enter alone: the CLI may have read text and Enter as a paste", async () => {
    const changed = new Emitter<unknown>();
    let view = { id: "a1", status: "active", statusSource: "submitted", lastTurn: "none" } as AgentFacts;
    const source = { card: () => view, onDidChangeCard: changed.event };
    const taken = whenTaken(source, "a1", 50);
    expect(await taken).toBe(false);
    const confirmed = whenTaken(source, "a1", 5000);
    view = { ...view, statusSource: "process" };
    changed.fire(undefined);
    expect(await confirmed).toBe(true);
  });
});

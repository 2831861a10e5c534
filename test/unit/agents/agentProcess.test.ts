/**
 * The agent manager with the process monitor: exact status from the CLI's status file,
 * /clear by sessionId, a claude that dies, a restart, and terminals where claude was started by
 * hand. Fake terminals and a driven monitor; real transcript files recorded from the real CLI.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentManager } from "../../../src/agents/agent/agentManager";
import { ManualClock } from "../../../src/core/util/clock";
import { noWatch } from "../../../src/core/util/fileWatch";
import { FakeProcessMonitor, FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { loadScenario, sessionFiles } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";
import { agentViews } from "../../support/agentViews";
import { cardStoreOver } from "../../support/cardStoreOver";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

const CLAUDE = { command: "claude", args: ["--model", "x"] };

function setup(
  opts: {
    adopt?: boolean;
    extras?: boolean;
    store?: MemoryStore;
    host?: FakeTerminalHost;
    projectDir?: string;
    remove?: (paths: readonly string[]) => Promise<void>;
  } = {},
) {
  const projectDir = opts.projectDir ?? tempDir();
  mkdirSync(projectDir, { recursive: true });
  const host = opts.host ?? new FakeTerminalHost();
  const monitor = new FakeProcessMonitor();
  const removed: string[][] = [];
  let ids = 0;
  const manager = new AgentManager({
    terminals: host,
    store: opts.store ?? new MemoryStore(),
    log: memoryLog(),
    projectDirFor: () => projectDir,
    newSessionId: () => `session-${++ids}`,
    newAgentId: () => `agent-${ids}`,
    clock: new ManualClock(),
    processes: monitor,
    adoptTerminals: () => opts.adopt ?? true,
    launchExtras: opts.extras ? async (agentId) => ({ args: ["--mcp-config", `/tmp/${agentId}.json`], paths: [`/tmp/${agentId}`] }) : undefined,
    removeLaunchFiles: opts.remove ?? (async (paths) => void removed.push([...paths])),
  });
  managers.push(manager);
  const until = <T>(probe: () => T | undefined | false, what = "a change") => waitForChange((cb) => manager.onDidTouch(cb).dispose, probe, 8000, what);
  return { manager, host, monitor, projectDir, until, removed };
}

/** The several-tools session cut just before its first tool result: a tool is running. */
function writeRunningTool(projectDir: string, sessionId: string): void {
  const lines = readFileSync(sessionFiles(loadScenario("several-tools"))[0] as string, "utf8")
    .split("\n")
    .filter(Boolean);
  const firstResult = lines.findIndex((l) => l.includes('"tool_result"'));
  writeFileSync(join(projectDir, `${sessionId}.jsonl`), `${lines.slice(0, firstResult).join("\n")}\n`);
}

describe("AgentManager with the CLI's live status", () => {
  it("reads the transcript as soon as the CLI's status changes, without a file event or the (backed-off) poll", async () => {
    const projectDir = tempDir();
    const host = new FakeTerminalHost();
    const monitor = new FakeProcessMonitor();
    let ids = 0;
    const manager = new AgentManager({
      terminals: host,
      store: new MemoryStore(),
      log: memoryLog(),
      projectDirFor: () => projectDir,
      newSessionId: () => `session-${++ids}`,
      newAgentId: () => `agent-${ids}`,
      clock: new ManualClock(),
      // No file events, and a poll whose clock never moves: only the status change can read it.
      ioClock: new ManualClock(),
      followerOptions: { watch: noWatch },
      processes: monitor,
      adoptTerminals: () => true,
    });
    managers.push(manager);
    await manager.open(CLAUDE, "/w");
    const shell = host.terminals[0]!.pid!;
    await waitForChange(
      (cb) => manager.onDidTouch(cb).dispose,
      () => monitor.tracking(shell),
      8000,
      "the monitor to track the shell",
    );
    writeRunningTool(projectDir, "session-1");
    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "busy" });
    await waitForChange(
      (cb) => manager.onDidTouch(cb).dispose,
      () => (agentViews(manager)[0]?.tools.length ?? 0) > 0,
      3000,
      "the running tools from the transcript",
    );
  });

  it("shows needs permission exactly while the status file says so, and the transcript status otherwise", async () => {
    const { manager, host, monitor, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    const shell = host.terminals[0]!.pid!;
    await until(() => monitor.tracking(shell), "the monitor to track the shell");
    writeRunningTool(projectDir, "session-1");
    await until(() => agentViews(manager)[0]?.status === "active", "active from the transcript");
    expect(agentViews(manager)[0]?.statusSource).toBe("transcript");

    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "waiting", waitingFor: "permission prompt" });
    expect(agentViews(manager)[0]).toMatchObject({ status: "needsYou", statusSource: "process" });
    const left: unknown[] = [];
    manager.onDidChange((c) => c.type === "permissionPromptLeft" && left.push(c));
    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "busy", statusUpdatedAt: 1234 });
    expect(agentViews(manager)[0]?.status).toBe("active");
    // Answered in the terminal: prompts relayed to the panel before that moment are over.
    expect(left).toEqual([{ type: "permissionPromptLeft", agentId: "agent-1", at: 1234 }]);
    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "idle" });
    expect(agentViews(manager)[0]?.status).toBe("waiting");
    expect(left).toHaveLength(1);
  });

  it("ends the turn as interrupted with no tool left running when claude dies, shows it exited, and restarts it with --resume", async () => {
    const { manager, host, monitor, projectDir, until } = setup({ extras: true });
    const agent = await manager.open(CLAUDE, "/w");
    const terminal = host.terminals[0]!;
    await until(() => monitor.tracking(terminal.pid!));
    writeRunningTool(projectDir, "session-1");
    await until(() => agentViews(manager)[0]?.tools.some((t) => t.outcome === "running"), "a running tool");
    monitor.report(terminal.pid!, { state: "running", pid: 900, sessionId: "session-1", status: "busy" });

    monitor.report(terminal.pid!, { state: "none" });
    const view = agentViews(manager)[0]!;
    expect(view.status).toBe("exited");
    expect(view.lastTurn).toBe("interrupted");
    expect(view.tools.filter((t) => t.outcome === "running")).toEqual([]);

    expect(manager.restart(agent.id, "claude")).toBe(true);
    expect(terminal.ran).toEqual([{ command: "claude", args: ["--model", "x", "--mcp-config", "/tmp/agent-1.json", "--resume", "session-1"] }]);
    monitor.report(terminal.pid!, { state: "running", pid: 901, sessionId: "session-1", status: "idle" });
    expect(agentViews(manager)[0]?.status).toBe("waiting");
    expect(manager.restart(agent.id, "claude")).toBe(false);
  });

  it("says the turn finished when the status file goes from busy to idle, even after the transcript's turn end", async () => {
    const { manager, host, monitor, projectDir, until } = setup();
    const changes: string[] = [];
    const cards = cardStoreOver(manager);
    cards.onDidFinishTurn(() => changes.push("turnFinished"));
    await manager.open(CLAUDE, "/w");
    const shell = host.terminals[0]!.pid!;
    await until(() => monitor.tracking(shell));
    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "busy" });
    // The whole turn is on disk while the CLI still says busy: the card stays active.
    copyFileSync(sessionFiles(loadScenario("text-only"))[0] as string, join(projectDir, "session-1.jsonl"));
    await until(() => agentViews(manager)[0]?.lastTurn === "completed", "the transcript's turn end");
    expect(agentViews(manager)[0]?.status).toBe("active");
    expect(changes).not.toContain("turnFinished");
    monitor.report(shell, { state: "running", pid: 900, sessionId: "session-1", status: "idle" });
    expect(changes.filter((c) => c === "turnFinished")).toHaveLength(1);
    cards.dispose();
  });

  it("after a window reload, an agent whose claude died meanwhile shows exited, with nothing left running", async () => {
    const projectDir = tempDir();
    mkdirSync(projectDir, { recursive: true });
    writeRunningTool(projectDir, "saved-session");
    const host = new FakeTerminalHost();
    host.adopt("Claude Code #1", 4321);
    const store = new MemoryStore([
      { agentId: "a1", name: "Agent #1", index: 1, sessionId: "saved-session", cwd: "/w", shellPid: 4321, terminalName: "Claude Code #1" },
    ]);
    const { manager, monitor, until } = setup({ store, host, projectDir });
    await manager.restore();
    await vi.waitFor(() => expect(monitor.tracking(4321)).toBe(true));
    // The monitor's first look: no claude under that shell any more.
    monitor.report(4321, { state: "none" });
    const view = await until(() => agentViews(manager)[0]?.status === "exited" && agentViews(manager)[0], "the restored card to say claude exited");
    expect(view.lastTurn).toBe("interrupted");
    expect(view.tools.filter((t) => t.outcome === "running")).toEqual([]);
  });

  it("a claude not started yet is not 'exited'", async () => {
    const { manager, host, monitor, until } = setup();
    await manager.open(CLAUDE, "/w");
    await until(() => monitor.tracking(host.terminals[0]!.pid!));
    monitor.report(host.terminals[0]!.pid!, { state: "none" });
    expect(agentViews(manager)[0]?.status).toBe("starting");
  });

  it("moves to the session the process names after /clear, without waiting for the content rule", async () => {
    const { manager, host, monitor, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    const shell = host.terminals[0]!.pid!;
    await until(() => monitor.tracking(shell));
    const scenario = loadScenario("clear");
    const [before, after] = sessionFiles(scenario) as [string, string];
    copyFileSync(before, join(projectDir, "session-1.jsonl"));
    const newId = scenario.sessions[1] as string;
    copyFileSync(after, join(projectDir, `${newId}.jsonl`));
    // Another terminal is in front: the content rule alone would not move this agent.
    host.setActive(host.adopt("bash", 77));
    monitor.report(shell, { state: "running", pid: 900, sessionId: newId, status: "idle" });
    await until(() => agentViews(manager)[0]?.tools.some((t) => t.label === "echo two"), "the agent to follow the new session");
    expect(agentViews(manager)).toHaveLength(1);
  });

  it("removes the agent's launch files when its terminal closes", async () => {
    const { manager, host, removed, until } = setup({ extras: true });
    await manager.open(CLAUDE, "/w");
    expect(host.terminals[0]!.spec!.args).toEqual(["--model", "x", "--mcp-config", "/tmp/agent-1.json", "--session-id", "session-1"]);
    host.close(host.terminals[0]!);
    await until(() => agentViews(manager).length === 0);
    await vi.waitFor(() => expect(removed).toEqual([["/tmp/agent-1"]]));
  });

  it("when disposed (window closing), waits for launch files still being removed", async () => {
    const order: string[] = [];
    const slowRemove = () => new Promise<void>((resolve) => setTimeout(() => (order.push("launch files removed"), resolve()), 100));
    const { manager, host, until } = setup({ extras: true, remove: slowRemove });
    await manager.open(CLAUDE, "/w");
    host.close(host.terminals[0]!);
    await until(() => agentViews(manager).length === 0);
    await manager.dispose();
    order.push("disposed");
    expect(order).toEqual(["launch files removed", "disposed"]);
  });

  it("when disposed (window closing), follows no claude any more: not its agents', not a reconnecting card's, and adopts no terminal", async () => {
    const host = new FakeTerminalHost();
    // After a reload: one saved agent whose terminal is not back yet (its card reconnecting, watching its saved shell).
    const store = new MemoryStore([
      { agentId: "a1", name: "Agent #1", index: 1, sessionId: "saved-session", cwd: "/w", shellPid: 4321, terminalName: "Claude Code #1" },
    ]);
    const { manager, monitor, until } = setup({ store, host });
    await manager.restore();
    await manager.open(CLAUDE, "/w");
    const shell = host.terminals[0]!.pid!;
    await until(() => monitor.tracking(shell), "the monitor to track the agent's shell");
    expect(monitor.tracking(4321)).toBe(true);
    await manager.dispose();
    expect(monitor.tracking(shell)).toBe(false);
    expect(monitor.tracking(4321)).toBe(false);
    // A terminal where claude runs, opened after: nobody listens any more.
    host.revive("bash", 558);
    monitor.report(558, { state: "running", pid: 903, sessionId: "s", status: "idle", cwd: "/w" });
    expect(monitor.tracking(558)).toBe(false);
  });
});

describe("AgentManager adopting terminals where claude was started by hand", () => {
  it("gives such a terminal a card following its session", async () => {
    const { manager, host, monitor, projectDir, until } = setup();
    const terminal = host.revive("bash", 555);
    await vi.waitFor(() => expect(monitor.tracking(555)).toBe(true));
    copyFileSync(sessionFiles(loadScenario("several-tools"))[0] as string, join(projectDir, "hand-started.jsonl"));
    monitor.report(555, { state: "running", pid: 901, sessionId: "hand-started", status: "idle", cwd: "/w" });
    const card = await until(() => agentViews(manager).find((v) => v.tools.length > 0), "the adopted card to show its tools");
    expect(card).toMatchObject({ name: "Agent #1", status: "waiting" });
    manager.focus(card.id);
    expect(terminal.shown).toBe(1);
  });

  it("leaves it alone when arcadia.adoptTerminals is off", async () => {
    const { manager, host, monitor, until } = setup({ adopt: false });
    host.revive("bash", 556);
    monitor.report(556, { state: "running", pid: 902, sessionId: "s", status: "idle", cwd: "/w" });
    // Control, opened after it: an agent's own terminal is watched. Once it is, the plain one had its turn.
    await manager.open(CLAUDE, "/w");
    const agentShell = host.terminals.at(-1)?.pid as number;
    await until(() => monitor.tracking(agentShell), "the agent's own terminal to be watched");
    expect(agentViews(manager).map((v) => v.name)).toEqual(["Agent #1"]);
    // Not even watched: no process polling for terminals nobody asked about.
    expect(monitor.tracking(556)).toBe(false);
  });

  it("never adopts Arcadia's own command terminals", async () => {
    const { manager, host, monitor, until } = setup();
    host.revive("Arcadia: Agent #1 commands", 557);
    monitor.report(557, { state: "running", pid: 903, sessionId: "s", status: "idle", cwd: "/w" });
    // Control, opened after it the same way: a plain terminal running claude is adopted. Once it
    // is, the command terminal had its turn.
    host.revive("bash", 558);
    monitor.report(558, { state: "running", pid: 904, sessionId: "hand-started", status: "idle", cwd: "/w" });
    await until(() => monitor.tracking(558) && agentViews(manager).length > 0, "the plain terminal's card");
    expect(agentViews(manager)).toHaveLength(1);
    expect(monitor.tracking(557)).toBe(false);
  });
});

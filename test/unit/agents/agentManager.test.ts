/**
 * The agent manager in plain Node: fake terminals, real transcript files (recorded from the real
 * CLI) written into a temp project folder, real file watching. Engine timers on a manual clock.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentManager, type AgentChange, TERMINAL_REVIVAL_GRACE_MS } from "../../../src/agents/agent/agentManager";
import { ManualClock } from "../../../src/core/util/clock";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { loadScenario, sessionFiles } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";
import { agentViews } from "../../support/agentViews";
import { cardStoreOver } from "../../support/cardStoreOver";

/** Any session id: the file is written under it (writeSession). */
const RESUMED_ID = "0b5e5a1d-1d2e-4c3b-9a8f-7e6d5c4b3a21";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

function setup(store = new MemoryStore(), host = new FakeTerminalHost(), ioClock?: ManualClock, alivePids: ReadonlySet<number> = new Set()) {
  const projectDir = tempDir();
  mkdirSync(projectDir, { recursive: true });
  const changes: AgentChange[] = [];
  let ids = 0;
  const log = memoryLog();
  const manager = new AgentManager({
    terminals: host,
    store,
    log,
    projectDirFor: () => projectDir,
    newSessionId: () => `session-${++ids}`,
    newAgentId: () => `agent-${ids}`,
    clock: new ManualClock(),
    ioClock,
    isProcessAlive: (pid) => alivePids.has(pid),
  });
  manager.onDidChange((c) => changes.push(c));
  managers.push(manager);
  const until = <T>(probe: () => T | undefined | false, what = "a change") => waitForChange((cb) => manager.onDidTouch(cb).dispose, probe, 8000, what);
  return { manager, host, store, projectDir, changes, until, log };
}

const CLAUDE = { command: "claude", args: ["--model", "x"] };

function writeSession(projectDir: string, sessionId: string, scenario: string, index = 0): void {
  const source = sessionFiles(loadScenario(scenario))[index] as string;
  copyFileSync(source, join(projectDir, `${sessionId}.jsonl`));
}

describe("AgentManager", () => {
  it("gives two launches started together (a double-click) different numbers, names and terminals", async () => {
    const { manager, host } = setup();
    const [a, b] = await Promise.all([manager.open(CLAUDE, "/work/app"), manager.open(CLAUDE, "/work/app")]);
    expect([a.name, b.name].sort()).toEqual(["Agent #1", "Agent #2"]);
    expect(host.terminals.map((t) => t.name).sort()).toEqual(["Agent #1", "Agent #2"]);
    const c = await manager.open(CLAUDE, "/work/app");
    expect(c.index).toBe(3);
  });

  it("renaming a card renames its terminal too", async () => {
    const { manager, host } = setup();
    const view = await manager.open(CLAUDE, "/work/app");
    await manager.rename(view.id, "  Reviewer  ");
    expect(agentViews(manager)[0]?.name).toBe("Reviewer");
    expect(host.terminals[0]?.name).toBe("Reviewer");
  });

  it("a claude that exits before its session starts shows claude exited with its own message at once", async () => {
    const { manager, host, until } = setup();
    const view = await manager.open(CLAUDE, "/work/app");
    const terminal = host.terminals[0]!;
    host.endCommand(terminal, {
      commandLine: "claude --modle --session-id session-1",
      exitCode: 1,
      output: "\u001b[31merror: unknown option '--modle'\u001b[39m\r\n",
    });
    const exited = await until(() => agentViews(manager).find((v) => v.id === view.id && v.status === "exited"), "the card exited");
    expect(exited.exitMessage).toBe("error: unknown option '--modle'");
    // Another command typed in the same terminal later is not claude: it changes nothing.
    host.endCommand(terminal, { commandLine: "ls -la", exitCode: 2, output: "ls: cannot access" });
    expect(agentViews(manager)[0]?.exitMessage).toBe("error: unknown option '--modle'");
  });

  it("opens a terminal running claude --session-id and shows the card at once, before any transcript", async () => {
    const { manager, host, store } = setup();
    const view = await manager.open(CLAUDE, "/work/app");
    const [terminal] = host.terminals;
    expect(terminal?.spec).toMatchObject({ name: "Agent #1", cwd: "/work/app", command: "claude", args: ["--model", "x", "--session-id", "session-1"] });
    expect(view).toMatchObject({ name: "Agent #1", index: 1, status: "starting", focused: true, tools: [] });
    expect(store.bindings).toMatchObject([{ agentId: view.id, sessionId: "session-1", shellPid: 4000, terminalName: "Agent #1" }]);
  });

  it("resumes a past session with claude --resume in a new terminal, its card showing the session's last turn; resuming it again focuses that card", async () => {
    const { manager, host, projectDir, until, store } = setup();
    writeSession(projectDir, RESUMED_ID, "rename-resume");
    const view = await manager.open(CLAUDE, "/work/app", RESUMED_ID);
    expect(host.terminals[0]!.spec!.args).toEqual(["--model", "x", "--resume", RESUMED_ID]);
    expect(store.bindings).toMatchObject([{ agentId: view.id, sessionId: RESUMED_ID }]);
    // Read from the current turn (as after a reload): the last turn's call, not every turn's.
    const shown = await until(() => agentViews(manager).find((v) => v.status === "waiting"), "the resumed session's state");
    expect(shown.tools.map((t) => `${t.label} ${t.outcome}`)).toEqual(["echo planned done"]);
    const again = await manager.open(CLAUDE, "/work/app", RESUMED_ID);
    expect(again.id).toBe(view.id);
    expect(host.terminals).toHaveLength(1);
  });

  it("follows the session's transcript once the CLI writes it", async () => {
    const { manager, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    writeSession(projectDir, "session-1", "several-tools");
    const view = await until(() => agentViews(manager).find((v) => v.status === "waiting"), "the turn to end");
    expect(view).toMatchObject({ lastTurn: "completed" });
    expect(view.tools.map((t) => `${t.label} ${t.outcome}`)).toEqual(["Reading notes.txt done", "echo hi done", "Writing created.txt done"]);
  });

  it("clears the card when its transcript is deleted: no rows of the old turn under a card that starts over", async () => {
    const { manager, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    writeSession(projectDir, "session-1", "several-tools");
    await until(() => agentViews(manager).find((v) => v.status === "waiting"), "the turn to end");
    rmSync(join(projectDir, "session-1.jsonl"));
    const view = await until(() => agentViews(manager).find((v) => v.status === "starting"), "the card to start over");
    expect(view).toMatchObject({ lastTurn: "none", tools: [] });
  });

  it("numbers agents in launch order, focuses a card's terminal, and selects the card of the focused terminal", async () => {
    const { manager, host } = setup();
    const one = await manager.open(CLAUDE, "/w");
    const two = await manager.open(CLAUDE, "/w");
    expect(agentViews(manager).map((v) => [v.name, v.focused])).toEqual([
      ["Agent #1", false],
      ["Agent #2", true],
    ]);
    manager.focus(one.id);
    expect(host.terminals[0]?.shown).toBe(1);
    expect(agentViews(manager).map((v) => v.focused)).toEqual([true, false]);
    host.setActive(host.terminals[1]);
    expect(agentViews(manager).find((v) => v.id === two.id)?.focused).toBe(true);
  });

  it("removes the card when its terminal closes, however it closes, and ✕ closes the terminal", async () => {
    const { manager, host, store, changes } = setup();
    const one = await manager.open(CLAUDE, "/w");
    const two = await manager.open(CLAUDE, "/w");
    host.close(host.terminals[0]!);
    await waitForChange(
      (cb) => manager.onDidTouch(cb).dispose,
      () => agentViews(manager).length === 1,
    );
    expect(changes).toContainEqual({ type: "removed", id: one.id });
    manager.close(two.id);
    expect(host.terminals[1]?.disposed).toBe(true);
    await waitForChange(
      (cb) => manager.onDidTouch(cb).dispose,
      () => agentViews(manager).length === 0,
    );
    await vi.waitFor(() => expect(store.bindings).toEqual([]));
  });

  it("renames an agent and remembers the name", async () => {
    const { manager, store } = setup();
    const one = await manager.open(CLAUDE, "/w");
    await manager.rename(one.id, "  Refactorer  ");
    expect(agentViews(manager)[0]?.name).toBe("Refactorer");
    expect(store.bindings[0]?.name).toBe("Refactorer");
  });

  it("its card store says when a turn finishes (active → waiting), once, for notifications", async () => {
    const { manager, projectDir, until } = setup();
    const cards = cardStoreOver(manager);
    const finished: string[] = [];
    cards.onDidFinishTurn((card) => finished.push(card.status));
    await manager.open(CLAUDE, "/w");
    const lines = readFileSync(sessionFiles(loadScenario("text-only"))[0] as string, "utf8")
      .split("\n")
      .filter(Boolean);
    const end = lines.findIndex((l) => l.includes('"turn_duration"'));
    writeFileSync(join(projectDir, "session-1.jsonl"), `${lines.slice(0, end).join("\n")}\n`);
    await until(() => agentViews(manager)[0]?.status === "active", "active");
    writeFileSync(join(projectDir, "session-1.jsonl"), `${lines.join("\n")}\n`);
    await until(() => finished.length > 0, "turnFinished");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toEqual(["waiting"]);
    cards.dispose();
  });
});

describe("AgentManager and /clear", () => {
  function clearFiles() {
    const scenario = loadScenario("clear");
    const [before, after] = sessionFiles(scenario) as [string, string];
    return { before, after, newId: scenario.sessions[1] as string };
  }

  it("moves the focused agent to the file its /clear started", async () => {
    const { manager, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    const { before, after, newId } = clearFiles();
    copyFileSync(before, join(projectDir, "session-1.jsonl"));
    await until(() => agentViews(manager)[0]?.status === "waiting");
    copyFileSync(after, join(projectDir, `${newId}.jsonl`));
    const moved = await until(
      () => agentViews(manager)[0]?.tools.some((t) => t.label === "echo two") && agentViews(manager)[0],
      "the agent to follow the new file",
    );
    expect(moved.name).toBe("Agent #1");
    expect(agentViews(manager)).toHaveLength(1);
  });

  it("does not claim a file without the /clear command (e.g. --resume or another window)", async () => {
    // The claim rule's waits run on this clock: the test drives them instead of sleeping.
    const ioClock = new ManualClock(Date.now());
    const { manager, projectDir, until, log } = setup(new MemoryStore(), new FakeTerminalHost(), ioClock);
    await manager.open(CLAUDE, "/w");
    copyFileSync(sessionFiles(loadScenario("text-only"))[0] as string, join(projectDir, "session-1.jsonl"));
    await until(() => agentViews(manager)[0]?.status === "waiting");
    copyFileSync(sessionFiles(loadScenario("several-tools"))[0] as string, join(projectDir, "other.jsonl"));
    await vi.waitFor(
      () => {
        ioClock.advance(100);
        expect(log.lines.some((l) => l.includes("other.jsonl: not started by /clear"))).toBe(true);
      },
      { timeout: 5000, interval: 2 },
    );
    expect(agentViews(manager)[0]?.tools).toEqual([]);
    expect(log.lines.some((l) => l.includes("moved from session"))).toBe(false);
  });

  it("does not claim for an agent whose terminal was never focused when another is", async () => {
    const { manager, host, projectDir, until } = setup();
    await manager.open(CLAUDE, "/w");
    await manager.open(CLAUDE, "/w");
    const { before, after, newId } = clearFiles();
    copyFileSync(before, join(projectDir, "session-1.jsonl"));
    copyFileSync(before, join(projectDir, "session-2.jsonl"));
    await until(() => agentViews(manager).every((v) => v.status === "waiting"));
    host.setActive(host.terminals[0]);
    copyFileSync(after, join(projectDir, `${newId}.jsonl`));
    await until(() => agentViews(manager)[0]?.tools.some((t) => t.label === "echo two"), "agent #1 to move");
    expect(agentViews(manager)[1]?.tools.map((t) => t.label)).toEqual(["echo one"]);
  });
});

describe("AgentManager and /clear typed elsewhere", () => {
  it("does not move an agent when /clear was typed in a terminal that is not an agent's", async () => {
    const { manager, host, projectDir, until, log } = setup();
    await manager.open(CLAUDE, "/w");
    const scenario = loadScenario("clear");
    const [before, after] = sessionFiles(scenario) as [string, string];
    copyFileSync(before, join(projectDir, "session-1.jsonl"));
    await until(() => agentViews(manager)[0]?.status === "waiting");
    // The user runs claude by hand in another terminal and clears there.
    host.setActive(host.adopt("bash", 9999));
    copyFileSync(after, join(projectDir, `${scenario.sessions[1]}.jsonl`));
    await vi.waitFor(() => expect(log.lines.some((l) => l.includes("no focused agent in its project claims it"))).toBe(true), { timeout: 5000 });
    expect(agentViews(manager)[0]?.tools.map((t) => t.label)).toEqual(["echo one"]);
  });
});

describe("AgentManager after a window reload", () => {
  async function reloadWith(
    bindings: MemoryStore["bindings"],
    terminals: [string, number | undefined][],
    ioClock?: ManualClock,
    alivePids?: ReadonlySet<number>,
  ) {
    const host = new FakeTerminalHost();
    for (const [name, pid] of terminals) host.adopt(name, pid);
    return setup(new MemoryStore(bindings), host, ioClock, alivePids);
  }

  const binding = (over: Partial<MemoryStore["bindings"][number]> = {}) => ({
    agentId: "a1",
    name: "Reviewer",
    index: 3,
    sessionId: "s1",
    cwd: "/w",
    shellPid: 777,
    terminalName: "Claude Code #3",
    ...over,
  });

  it("re-binds cards to their live terminals by shell pid, even renamed, with state from the transcript", async () => {
    const { manager, projectDir } = await reloadWith([binding()], [["renamed by the user", 777]]);
    writeSession(projectDir, "s1", "several-tools");
    await manager.restore();
    expect(agentViews(manager)).toMatchObject([{ id: "a1", name: "Reviewer", index: 3, status: "waiting", lastTurn: "completed" }]);
    expect(agentViews(manager)[0]?.tools.map((t) => t.outcome)).toEqual(["done", "done", "done"]);
  });

  it("restoring twice (the webview asks on every show) adds nothing", async () => {
    const { manager, projectDir } = await reloadWith([binding()], [["Claude Code #3", 777]]);
    writeSession(projectDir, "s1", "text-only");
    await manager.restore();
    await manager.restore();
    expect(agentViews(manager)).toHaveLength(1);
  });

  it("drops agents whose terminal does not come back, and does not bind by name when the pid does not match", async () => {
    const ioClock = new ManualClock();
    const { manager, store } = await reloadWith([binding(), binding({ agentId: "a2", shellPid: 888, terminalName: "x" })], [["Claude Code #3", 999]], ioClock);
    await manager.restore();
    // VS Code may still be bringing terminals back: the cards show, reconnecting, and the bindings are kept for a while...
    expect(agentViews(manager).map((v) => [v.id, v.reconnecting])).toEqual([
      ["a1", true],
      ["a2", true],
    ]);
    expect(store.bindings).toHaveLength(2);
    ioClock.advance(TERMINAL_REVIVAL_GRACE_MS);
    // ...and dropped after, cards included.
    await vi.waitFor(() => expect(store.bindings).toEqual([]));
    expect(agentViews(manager)).toEqual([]);
  });

  it("keeps waiting, reconnecting, for a terminal whose shell still runs (VS Code may revive it only when the terminal view shows)", async () => {
    const ioClock = new ManualClock();
    const { manager, host, store } = await reloadWith([binding()], [], ioClock, new Set([777]));
    await manager.restore();
    ioClock.advance(TERMINAL_REVIVAL_GRACE_MS * 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(agentViews(manager)).toMatchObject([{ id: "a1", reconnecting: true }]);
    expect(store.bindings).toHaveLength(1);
    host.revive("Claude Code #3", 777);
    await vi.waitFor(() => expect(agentViews(manager)).toMatchObject([{ id: "a1", reconnecting: false }]));
  });

  it("tells who waits whether a saved agent is back: true once bound, false once the grace passed without its terminal (shell running or not)", async () => {
    const ioClock = new ManualClock();
    const { manager, host } = await reloadWith([binding(), binding({ agentId: "a2", shellPid: 888, terminalName: "x" })], [], ioClock, new Set([777, 888]));
    await manager.restore();
    const a1 = manager.whenBack("a1");
    host.revive("Claude Code #3", 777);
    await expect(a1).resolves.toBe(true);
    const a2 = manager.whenBack("a2");
    let told: boolean | undefined;
    void a2.then((back) => (told = back));
    await new Promise((r) => setTimeout(r, 20));
    expect(told).toBeUndefined();
    ioClock.advance(TERMINAL_REVIVAL_GRACE_MS);
    await expect(a2).resolves.toBe(false);
    // Its card still waits, reconnecting: only what waited on it was told not to.
    expect(agentViews(manager).find((v) => v.id === "a2")).toMatchObject({ reconnecting: true });
    await expect(manager.whenBack("a1")).resolves.toBe(true);
    await expect(manager.whenBack("nobody")).resolves.toBe(false);
  });

  it("gives a card back when VS Code revives its terminal after the extension started", async () => {
    const { manager, host, projectDir } = await reloadWith([binding()], [], new ManualClock());
    writeSession(projectDir, "s1", "text-only");
    const restoring = manager.restore();
    // At once, before anything is awaited: the card, reconnecting (never an empty panel)...
    expect(agentViews(manager)).toMatchObject([{ id: "a1", name: "Reviewer", reconnecting: true }]);
    await restoring;
    // ...with the state its transcript's tail says while its terminal is still away...
    await vi.waitFor(() => expect(agentViews(manager)).toMatchObject([{ id: "a1", reconnecting: true, status: "waiting", lastTurn: "completed" }]));
    host.revive("Claude Code #3", 777);
    // ...and itself once bound, its terminal named like the card again.
    await vi.waitFor(() => expect(agentViews(manager)).toMatchObject([{ id: "a1", name: "Reviewer", status: "waiting", reconnecting: false }]));
    await vi.waitFor(() => expect(host.terminals[0]?.name).toBe("Reviewer"));
  });

  it("tells each reconnecting card as it shows it, before its transcript is read: the panel and the status bar, which follow what is told, have it at once", async () => {
    const { manager } = await reloadWith([binding()], [], new ManualClock());
    const told: AgentChange[] = [];
    manager.onDidChange((change) => told.push(change));
    void manager.restore();
    expect(told).toEqual([{ type: "added", id: "a1" }]);
    expect(manager.view("a1")).toMatchObject({ id: "a1", name: "Reviewer", reconnecting: true });
  });

  it("keeps numbering after the restored agents", async () => {
    const { manager, host } = await reloadWith([binding()], [["Claude Code #3", 777]]);
    await manager.restore();
    await manager.open(CLAUDE, "/w");
    expect(host.terminals.at(-1)?.name).toBe("Agent #4");
  });
});

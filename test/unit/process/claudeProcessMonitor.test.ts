/**
 * The process monitor on a fake process table and a real (temporary) sessions folder: which
 * `claude` belongs to which terminal, its status as the file says, stale and half-written files,
 * and exits. File events are fired by hand (one test uses the real watcher); polls run on a
 * ManualClock.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClaudeProcessState, ClaudeProcessMonitor, MAX_MISSED_LISTINGS, type MonitorOptions } from "../../../src/core/process/claudeProcessMonitor";
import type { ProcessInfo, ProcessTable } from "../../../src/core/process/processTable";
import type { WatchFactory } from "../../../src/core/util/fileWatch";
import { ManualClock } from "../../../src/core/util/clock";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const monitors: ClaudeProcessMonitor[] = [];
afterEach(async () => {
  for (const m of monitors.splice(0)) await m.stop();
});

class FakeTable implements ProcessTable {
  procs: ProcessInfo[] = [];
  lists = 0;
  /** The next this many listings fail (as `ps` timing out would). */
  failures = 0;
  /** Alive, but left out of the listings (a listing that missed them). */
  hidden = new Set<number>();
  async list(): Promise<ProcessInfo[]> {
    this.lists++;
    if (this.failures > 0) {
      this.failures--;
      throw new Error("ps timed out");
    }
    return this.procs.filter((p) => !this.hidden.has(p.pid)).map((p) => ({ ...p }));
  }
  /** What kill(pid, 0) says: the fake's processes are the live ones. */
  alive(pid: number): boolean {
    return this.procs.some((p) => p.pid === pid);
  }
  add(pid: number, ppid: number, name: string, startTime = `${pid}00`): void {
    this.procs.push({ pid, ppid, name, startTime });
  }
  remove(pid: number): void {
    this.procs = this.procs.filter((p) => p.pid !== pid);
  }
}

function setup(opts: Partial<MonitorOptions> & { noFolder?: boolean } = {}) {
  const configDir = tempDir();
  const sessions = join(configDir, "sessions");
  if (!opts.noFolder) mkdirSync(sessions);
  const table = new FakeTable();
  const clock = new ManualClock(1_000_000);
  let onChange: ((path: string) => void) | undefined;
  const watch: WatchFactory = (_root, accept, cb) => {
    onChange = (p) => accept(p) && cb(p);
    return { ready: Promise.resolve(), close: async () => {} };
  };
  const errors: unknown[] = [];
  const monitor = new ClaudeProcessMonitor({
    configDir,
    table,
    clock,
    watch,
    platform: "linux",
    onError: (e) => errors.push(e),
    isAlive: (pid) => table.alive(pid),
    ...opts,
  });
  monitors.push(monitor);
  const file = (pid: number) => join(sessions, `${pid}.json`);
  const writeStatus = (pid: number, fields: Record<string, unknown>) => {
    mkdirSync(sessions, { recursive: true });
    writeFileSync(file(pid), JSON.stringify({ pid, procStart: `${pid}00`, sessionId: "s-1", cwd: "/w", kind: "interactive", ...fields }));
  };
  /** The CLI wrote the file: as the watcher would report it. */
  const fire = (pid: number) => onChange?.(file(pid));
  const follow = (shellPid: number) => {
    const seen: { state: ClaudeProcessState; previous: ClaudeProcessState | undefined }[] = [];
    const sub = monitor.track(shellPid, (state, previous) => seen.push({ state, previous }));
    const last = () => seen.at(-1)?.state;
    const until = (pred: (s: ClaudeProcessState | undefined) => boolean) => vi.waitFor(() => expect(pred(last())).toBe(true), { timeout: 3000, interval: 5 });
    return { seen, sub, last, until };
  };
  return { monitor, table, clock, writeStatus, fire, follow, file, sessions, errors };
}

const running = (s: ClaudeProcessState | undefined) => (s?.state === "running" ? s : undefined);

describe("ClaudeProcessMonitor", () => {
  it("binds a shell to its claude and reports the status file", async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle", name: "project-cc" });
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "running", pid: 101, startTime: "10100", sessionId: "s-1", status: "idle", cwd: "/w", name: "project-cc" });
    expect(t.seen[0]?.previous).toBeUndefined();
  });

  it("reports every status change the CLI writes: busy, waiting for permission, busy, idle", async () => {
    const { table, writeStatus, fire, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle" });
    const t = follow(100);
    await monitor.refresh();
    const listed = table.lists;
    const steps: [string, string | undefined][] = [
      ["busy", undefined],
      ["waiting", "permission prompt"],
      ["busy", undefined],
      ["idle", undefined],
    ];
    for (const [status, waitingFor] of steps) {
      writeStatus(101, { status, ...(waitingFor ? { waitingFor } : {}) });
      fire(101);
      await t.until((s) => running(s)?.status === status && running(s)?.waitingFor === waitingFor);
    }
    expect(t.seen.map((e) => running(e.state)?.status)).toEqual(["idle", "busy", "waiting", "busy", "idle"]);
    // No poll was needed: the file events alone carried the changes.
    expect(table.lists).toBe(listed);
  });

  it("reports the new session id after /clear", async () => {
    const { table, writeStatus, fire, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle", sessionId: "old" });
    const t = follow(100);
    await monitor.refresh();
    writeStatus(101, { status: "idle", sessionId: "new" });
    fire(101);
    await t.until((s) => running(s)?.sessionId === "new");
  });

  it("keeps the last good status when it reads a half-written file", async () => {
    const { table, writeStatus, fire, follow, monitor, file } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "waiting", waitingFor: "permission prompt" });
    const t = follow(100);
    await monitor.refresh();
    writeFileSync(file(101), '{"pid":101,"procStart":"10100","status":"bu');
    fire(101);
    await monitor.refresh();
    expect(running(t.last())?.status).toBe("waiting");
    expect(t.seen).toHaveLength(1);
    writeStatus(101, { status: "busy" });
    fire(101);
    await t.until((s) => running(s)?.status === "busy");
  });

  it("reports a claude without a (valid) status file as running with no status", async () => {
    const { table, follow, monitor, file, sessions } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(file(101), "[]");
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "running", pid: 101, startTime: "10100" });
  });

  it("says none for a shell without claude, and for a shell that is gone", async () => {
    const { table, follow, monitor } = setup();
    table.add(100, 1, "bash");
    const t = follow(100);
    const gone = follow(555);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
    expect(gone.last()).toEqual({ state: "none" });
  });

  it("a failed process listing keeps every agent's state (told once), and the next good one carries on", async () => {
    const { table, writeStatus, follow, monitor, errors } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    table.add(200, 1, "bash");
    table.add(201, 200, "claude");
    writeStatus(101, { status: "busy" });
    writeStatus(201, { status: "idle" });
    const a = follow(100);
    const b = follow(200);
    await monitor.refresh();
    expect([running(a.last())?.pid, running(b.last())?.pid]).toEqual([101, 201]);
    table.failures = 2;
    await monitor.refresh();
    await monitor.refresh();
    expect(table.failures).toBe(0);
    expect([a.seen.length, b.seen.length]).toEqual([1, 1]);
    expect(errors.map(String)).toEqual([
      expect.stringMatching(/cannot list processes \(agents keep their last known state until a listing works\): ps timed out/),
    ]);
    await monitor.refresh();
    expect([a.seen.length, b.seen.length]).toEqual([1, 1]);
    // Still watching: a real exit after the failures is reported.
    table.remove(101);
    await monitor.refresh();
    expect(a.last()).toEqual({ state: "none" });
    expect(running(b.last())?.status).toBe("idle");
  });

  it("a shell or claude missing from a listing but alive keeps its state; one really gone (ESRCH) is none at once", async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "busy" });
    const t = follow(100);
    await monitor.refresh();
    table.hidden.add(101);
    await monitor.refresh();
    table.hidden = new Set([100, 101]);
    await monitor.refresh();
    table.hidden.clear();
    await monitor.refresh();
    expect(t.seen.map((e) => e.state.state)).toEqual(["running"]);
    // The missed polls do not add up across good listings.
    table.hidden.add(101);
    await monitor.refresh();
    await monitor.refresh();
    expect(t.seen.map((e) => e.state.state)).toEqual(["running"]);
    table.hidden.clear();
    table.remove(101);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
    table.remove(100);
    const closed = follow(100);
    await monitor.refresh();
    expect(closed.last()).toEqual({ state: "none" });
  });

  it(`a live pid missing from more than ${MAX_MISSED_LISTINGS} listings in a row counts as gone (its pid may be reused)`, async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle" });
    const t = follow(100);
    await monitor.refresh();
    table.hidden.add(101);
    for (let i = 0; i < MAX_MISSED_LISTINGS; i++) await monitor.refresh();
    expect(t.last()?.state).toBe("running");
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
  });

  it("does not believe a file whose process is dead (kill -9 leaves it)", async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    writeStatus(101, { status: "busy" });
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
  });

  it("does not believe a file whose pid was reused by another process", async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    // pid 101 now belongs to `make`, started long after the CLI that wrote the file.
    table.add(101, 100, "make", "99999");
    writeStatus(101, { status: "waiting", waitingFor: "permission prompt" });
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
  });

  it("does not take a stale file's status for a new claude that got the same pid", async () => {
    const { table, writeStatus, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude", "99999");
    writeStatus(101, { status: "waiting", waitingFor: "permission prompt" });
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "running", pid: 101, startTime: "99999" });
  });

  it("reports an exit (running → none) at the next poll after kill -9, file left behind", async () => {
    const { table, writeStatus, follow, monitor, clock } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "busy" });
    const t = follow(100);
    await monitor.refresh();
    table.remove(101);
    clock.advance(1000);
    await t.until((s) => s?.state === "none");
    expect(running(t.seen.at(-1)?.previous)?.pid).toBe(101);
  });

  it("notices at once when the bound status file is removed (/exit), then the process ends", async () => {
    const { table, writeStatus, fire, follow, monitor, clock, file } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle" });
    const t = follow(100);
    await monitor.refresh();
    rmSync(file(101));
    fire(101);
    await t.until((s) => s?.state === "running" && s.status === undefined);
    table.remove(101);
    clock.advance(100); // the exit check, well before the 1 s poll
    await t.until((s) => s?.state === "none");
  });

  it("binds a claude started later as soon as its status file appears, without waiting for the poll", async () => {
    const { table, writeStatus, fire, follow, monitor } = setup();
    table.add(100, 1, "bash");
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "none" });
    table.add(110, 100, "node");
    table.procs[1]!.commandLine = "npx @anthropic-ai/claude-code";
    table.add(111, 110, "claude");
    writeStatus(111, { status: "idle", sessionId: "s-2" });
    fire(111);
    await t.until((s) => running(s)?.pid === 111 && s?.state === "running" && s.sessionId === "s-2");
  });

  it("follows two terminals with a claude each", async () => {
    const { table, writeStatus, fire, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    table.add(200, 1, "zsh");
    table.add(201, 200, "claude");
    writeStatus(101, { status: "idle", sessionId: "a" });
    writeStatus(201, { status: "idle", sessionId: "b" });
    const a = follow(100);
    const b = follow(200);
    await monitor.refresh();
    writeStatus(201, { status: "waiting", sessionId: "b", waitingFor: "permission prompt" });
    fire(201);
    await b.until((s) => running(s)?.status === "waiting");
    expect(a.last()).toMatchObject({ pid: 101, sessionId: "a", status: "idle" });
    expect(a.seen).toHaveLength(1);
  });

  it("does not list processes again for every write of another window's claude", async () => {
    const { table, writeStatus, fire, follow, monitor } = setup();
    table.add(100, 1, "bash");
    table.add(900, 1, "claude");
    writeStatus(900, { status: "busy" });
    follow(100);
    await monitor.refresh();
    const before = table.lists;
    // The first write of an unknown pid may be a claude just started below a tracked shell: look.
    // (This refresh joins the one the event started and runs once more: two listings.)
    fire(900);
    await monitor.refresh();
    expect(table.lists).toBe(before + 2);
    // Once known to be foreign, its writes start no listing until the next timed poll: the
    // refresh below runs alone.
    for (let i = 0; i < 5; i++) fire(900);
    await monitor.refresh();
    expect(table.lists).toBe(before + 3);
  });

  it("polls the process table while something is tracked, and stops when nothing is", async () => {
    const { table, follow, monitor, clock } = setup();
    table.add(100, 1, "bash");
    const t = follow(100);
    await monitor.refresh();
    const before = table.lists;
    clock.advance(1000);
    await vi.waitFor(() => expect(table.lists).toBe(before + 1));
    t.sub.dispose();
    await monitor.refresh();
    const after = table.lists;
    clock.advance(5000);
    await monitor.refresh();
    expect(table.lists).toBe(after);
  });

  it("gives a late listener the known state at once, and survives a listener that throws", async () => {
    const { table, writeStatus, follow, monitor, errors, fire } = setup();
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle" });
    monitor.track(100, () => {
      throw new Error("listener bug");
    });
    const first = follow(100);
    await monitor.refresh();
    const late = follow(100);
    expect(late.last()).toEqual(first.last());
    writeStatus(101, { status: "busy" });
    fire(101);
    await late.until((s) => running(s)?.status === "busy");
    expect(first.last()).toEqual(late.last());
    expect(errors.length).toBeGreaterThan(0);
  });

  it("starts watching the sessions folder once the first CLI creates it", async () => {
    const { table, writeStatus, follow, monitor, clock, fire } = setup({ noFolder: true });
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    const t = follow(100);
    await monitor.refresh();
    expect(t.last()).toEqual({ state: "running", pid: 101, startTime: "10100" });
    writeStatus(101, { status: "idle" });
    clock.advance(1000);
    await t.until((s) => running(s)?.status === "idle");
    writeStatus(101, { status: "busy" });
    fire(101);
    await t.until((s) => running(s)?.status === "busy");
  });

  it("reacts to the real watcher (chokidar) on the sessions folder", async () => {
    const { table, writeStatus, follow, monitor } = setup({ watch: undefined, clock: undefined });
    table.add(100, 1, "bash");
    table.add(101, 100, "claude");
    writeStatus(101, { status: "idle" });
    const t = follow(100);
    await monitor.refresh();
    writeStatus(101, { status: "waiting", waitingFor: "permission prompt" });
    await t.until((s) => running(s)?.status === "waiting");
  });
});

/**
 * No change missed, and none found late, when file events are lost (WSL2, network drives, a full
 * inotify limit that chokidar swallows): the safety poll looks at a working agent's files at least
 * once a second however long it has been quiet, a project folder deleted and made again has its
 * watch re-armed, and a clock stepped back (a laptop waking, NTP) stalls nothing. Poll times run
 * on a ManualClock, except where the wall clock itself is what is under test.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProjectFolderWatcher } from "../../src/core/engine/projectFolderWatcher";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { ManualClock, systemClock } from "../../src/core/util/clock";
import { folderEntriesWatch, noWatch } from "../../src/core/util/fileWatch";
import { SafetyPoll } from "../../src/core/util/safetyPoll";
import { WatchedFolder } from "../../src/core/util/watchedFolder";
import { loadScenario, sessionFiles } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const stop of stops.splice(0)) await stop();
});

const lines = readFileSync(sessionFiles(loadScenario("several-tools"))[0] as string, "utf8")
  .split("\n")
  .filter(Boolean);
const firstToolUse = lines.findIndex((l) => l.startsWith('{"parentUuid"') && l.includes('"type":"tool_use"'));
/** A line that starts one more tool, with an id of its own. */
const toolLine = (id: string) => (lines[firstToolUse] as string).replace(/toolu_[A-Za-z0-9]+/, id);

/** Moves a manual clock on in steps, letting the file reads each step started finish (real I/O). */
async function run(clock: ManualClock, ms: number, stepMs: number): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advance(stepMs);
    await new Promise((r) => setTimeout(r, 3));
  }
}

/** How long (manual clock) until `seen()` holds, looking every 100 ms, up to `limitMs`; Infinity if never. */
async function msUntil(clock: ManualClock, seen: () => boolean, limitMs: number): Promise<number> {
  for (let t = 0; t <= limitMs; t += 100) {
    await new Promise((r) => setTimeout(r, 3));
    if (seen()) return t;
    clock.advance(100);
  }
  return Number.POSITIVE_INFINITY;
}

function workingFollower(file: string, clock: ManualClock): SessionFollower {
  // The turn under way, one tool open: the agent works.
  writeFileSync(file, `${lines.slice(0, firstToolUse + 1).join("\n")}\n`);
  const follower = new SessionFollower(file, { clock, watch: noWatch, safetyPoll: new SafetyPoll({ clock }) });
  stops.push(() => follower.stop());
  return follower;
}

describe("a follower whose file gets no events", () => {
  it("shows an append within 1.5 s while its agent works, however long the file was quiet", async () => {
    const clock = new ManualClock();
    const file = join(tempDir(), "s.jsonl");
    const follower = workingFollower(file, clock);
    await follower.start();
    expect(follower.state.activeTools.size).toBe(1);
    // A long tool: two quiet minutes (the poll once backed off to 30 s here, and an append waited up to 29.8 s).
    await run(clock, 120_000, 1000);
    appendFileSync(file, `${toolLine("toolu_late_1")}\n`);
    const late = await msUntil(clock, () => follower.state.activeTools.has("toolu_late_1"), 30_000);
    expect(late).toBeLessThanOrEqual(1500);
  });

  it("is looked at less and less while its agent is idle (the quiet agents' CPU)", async () => {
    const clock = new ManualClock();
    const file = join(tempDir(), "s.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`); // a finished turn
    const poll = new SafetyPoll({ clock });
    const follower = new SessionFollower(file, { clock, watch: noWatch, safetyPoll: poll });
    stops.push(() => follower.stop());
    await follower.start();
    expect(follower.state).toMatchObject({ status: "waiting" });
    expect(follower.state.activeTools.size).toBe(0);
    await run(clock, 600_000, 5000);
    // 1 s doubling to 30 s: ~25 looks in ten minutes, not 600.
    expect(poll.checks).toBeLessThan(40);
  });

  it("looks every second again once its owner says the agent is busy (its status file)", async () => {
    const clock = new ManualClock();
    const file = join(tempDir(), "s.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    let busy = false;
    const follower = new SessionFollower(file, { clock, watch: noWatch, safetyPoll: new SafetyPoll({ clock }), working: () => busy });
    stops.push(() => follower.stop());
    await follower.start();
    await run(clock, 120_000, 1000);
    busy = true;
    await follower.pump(); // as the owner does when the status file moves
    appendFileSync(file, `${toolLine("toolu_after_busy")}\n`);
    await run(clock, 3000, 100); // the prompt not written yet at the owner's look: the poll finds it
    appendFileSync(file, `${toolLine("toolu_after_busy_2")}\n`);
    const late = await msUntil(clock, () => follower.state.activeTools.has("toolu_after_busy_2"), 30_000);
    expect(late).toBeLessThanOrEqual(1500);
  });
});

describe("a project folder", () => {
  it("deleted and made again: its dead watch is re-armed and each new session found within 1.5 s", async () => {
    const root = tempDir();
    const dir = join(root, "-work-project");
    mkdirSync(dir);
    writeFileSync(join(dir, "first.jsonl"), "");
    const clock = new ManualClock();
    const seen: string[] = [];
    const watcher = new ProjectFolderWatcher(dir, { clock, safetyPoll: new SafetyPoll({ clock }), watch: folderEntriesWatch });
    stops.push(() => watcher.stop());
    watcher.onDidAddTranscript((p) => seen.push(p));
    await watcher.start();
    for (let round = 0; round < 3; round++) {
      await run(clock, 120_000, 1000); // quiet: the poll backs off
      rmSync(dir, { recursive: true });
      await new Promise((r) => setTimeout(r, 50)); // the watch's last events arrive
      mkdirSync(dir);
      writeFileSync(join(dir, `new${round}.jsonl`), "");
      const late = await msUntil(clock, () => seen.includes(join(dir, `new${round}.jsonl`)), 60_000);
      expect(late, `round ${round}`).toBeLessThanOrEqual(1500);
    }
    // And the watch is alive again: a session made now is announced by its event, the clock standing still.
    writeFileSync(join(dir, "by-event.jsonl"), "");
    await vi.waitFor(() => expect(seen).toContain(join(dir, "by-event.jsonl")), { timeout: 3000 });
  });

  it("whose events are lost finds a new session within 1.5 s while an agent works there", async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const seen: string[] = [];
    const watcher = new ProjectFolderWatcher(dir, { clock, safetyPoll: new SafetyPoll({ clock }), watch: noWatch, working: () => true });
    stops.push(() => watcher.stop());
    watcher.onDidAddTranscript((p) => seen.push(p));
    await watcher.start();
    await run(clock, 120_000, 1000);
    writeFileSync(join(dir, "cleared.jsonl"), "");
    const late = await msUntil(clock, () => seen.length > 0, 60_000);
    expect(late).toBeLessThanOrEqual(1500);
  });
});

describe("the wall clock stepped back an hour", () => {
  it("stalls no follower: an append is still read within seconds", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now(), shouldAdvanceTime: true });
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    writeFileSync(file, `${lines.slice(0, firstToolUse + 1).join("\n")}\n`);
    // The system clock and the process's shared poll, as in the extension; no file events.
    const follower = new SessionFollower(file, { clock: systemClock, watch: noWatch });
    stops.push(() => follower.stop());
    await follower.start();
    await new Promise((r) => setTimeout(r, 300)); // its trailing looks end: only the poll is left
    vi.setSystemTime(Date.now() - 3_600_000);
    appendFileSync(file, `${toolLine("toolu_after_step")}\n`);
    await vi.waitFor(() => expect(follower.state.activeTools.has("toolu_after_step")).toBe(true), { timeout: 4000, interval: 50 });
  });

  it("starts no busy loop: a folder that just found something is not looked at every 15 ms for the next hour", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now(), shouldAdvanceTime: true });
    const dir = tempDir();
    let looks = 0;
    let found = true;
    const folder = new WatchedFolder({ dir, accept: () => true, look: async () => (looks++, found), watch: noWatch, clock: systemClock });
    stops.push(() => folder.stop());
    await folder.start();
    found = false;
    await new Promise((r) => setTimeout(r, 200)); // its trailing looks end
    vi.setSystemTime(Date.now() - 3_600_000);
    looks = 0;
    await folder.look(); // a look after the step (a file event), finding nothing new
    await new Promise((r) => setTimeout(r, 600));
    // Trailing looks cover chokidar's 50 ms throttle: a handful, then none (40 would be one per 15 ms).
    expect(looks).toBeLessThanOrEqual(8);
  });
});

/**
 * What the passes and the safety poll look at while fifty agents write all the time (bench/fifty.ts):
 * a poll after the watch reported something does not stat the watched folder again (the watch was
 * alive), yet a watch silent since the last poll is checked, and re-armed if its folder was made
 * again; a pass for the transcript's own writes looks for new sub-agents at most once a second,
 * never less. File operations are counted by path (the stats of util/localDisk.ts, which all of them use); times on a ManualClock.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { subagentDirOf } from "../../src/core/transcript";
import { ManualClock } from "../../src/core/util/clock";
import { localDisk } from "../../src/core/util/localDisk";
import type { WatchFactory } from "../../src/core/util/fileWatch";
import { SafetyPoll } from "../../src/core/util/safetyPoll";
import { IDENTITY_CHECK_MAX_MS, WatchedFolder } from "../../src/core/util/watchedFolder";
import { useTempDirs } from "../support/tempDir";

const stats = new Map<string, number>();
const realStat = localDisk.stat.bind(localDisk);
vi.spyOn(localDisk, "stat").mockImplementation((path: string) => {
  stats.set(path, (stats.get(path) ?? 0) + 1);
  return realStat(path);
});
const statsOf = (path: string) => stats.get(path) ?? 0;

const tempDir = useTempDirs();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A watch that reports only what the test says it heard, ready at once; each one made is listed. */
function fakeWatch() {
  const made: { report: (path: string) => void }[] = [];
  const factory: WatchFactory = (_root, accept, onChange) => {
    made.push({ report: (p) => accept(p) && onChange(p) });
    return { ready: Promise.resolve(), close: async () => {}, throttleMs: 0 };
  };
  return { factory, made, report: (path: string) => made.at(-1)?.report(path) };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

describe("the safety poll of a watched folder", () => {
  it("does not stat a folder whose watch reported something since the last poll, at most every few seconds", async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const watch = fakeWatch();
    let passes = 0;
    const folder = new WatchedFolder({
      dir,
      accept: () => true,
      look: async () => (passes++, false),
      watch: watch.factory,
      clock,
      poll: new SafetyPoll({ clock, baseMs: 1000 }),
      working: () => true,
    });
    stops.push(() => folder.stop());
    await folder.start();
    const before = statsOf(dir);
    // An agent writing every 1.2 s for 12 s: the poll comes a second after each write.
    for (let i = 0; i < 10; i++) {
      watch.report(join(dir, "s.jsonl"));
      await settle();
      const passesBefore = passes;
      clock.advance(1200);
      await vi.waitFor(() => expect(passes).toBeGreaterThan(passesBefore), { timeout: 2000, interval: 2 });
    }
    expect(statsOf(dir) - before).toBeLessThanOrEqual(Math.ceil(12_000 / IDENTITY_CHECK_MAX_MS));
  });

  it("re-arms a watch silent since the last poll whose folder was made again, at the next poll", async () => {
    const dir = join(tempDir(), "project");
    mkdirSync(dir);
    const clock = new ManualClock();
    const watch = fakeWatch();
    const folder = new WatchedFolder({
      dir,
      accept: () => true,
      look: async () => false,
      watch: watch.factory,
      clock,
      poll: new SafetyPoll({ clock, baseMs: 1000 }),
      working: () => true,
    });
    stops.push(() => folder.stop());
    await folder.start();
    watch.report(join(dir, "s.jsonl"));
    await settle();
    clock.advance(1000); // the poll after the write: the watch was alive
    await settle();
    // Deleted and made again (another inode: made before the old one goes), its events lost: the old watch is dead and says nothing.
    mkdirSync(`${dir}.new`);
    rmSync(dir, { recursive: true });
    renameSync(`${dir}.new`, dir);
    expect(watch.made).toHaveLength(1);
    clock.advance(1000);
    await vi.waitFor(() => expect(watch.made).toHaveLength(2), { timeout: 2000, interval: 2 });
  });
});

describe("a follower's passes for its transcript's own writes", () => {
  it("look for new sub-agents once a second, not at every write", async () => {
    const project = tempDir();
    const file = join(project, "00000000-0000-4000-8000-000000000001.jsonl");
    writeFileSync(file, "");
    const subagents = subagentDirOf(file);
    const clock = new ManualClock();
    const watch = fakeWatch();
    const follower = new SessionFollower(file, { clock, watch: watch.factory, safetyPoll: new SafetyPoll({ clock }) });
    stops.push(() => follower.stop());
    await follower.start();
    const before = statsOf(subagents);
    // Thirty writes 100 ms apart, each reported: three seconds.
    for (let i = 0; i < 30; i++) {
      const reads = statsOf(file);
      appendFileSync(file, `{"type":"system","n":${i}}\n`);
      watch.report(file);
      await vi.waitFor(() => expect(statsOf(file)).toBeGreaterThan(reads), { timeout: 2000, interval: 2 });
      await settle();
      clock.advance(100);
    }
    const looks = statsOf(subagents) - before;
    // At 1 s and 2 s (and maybe 3 s): never a second without one.
    expect(looks).toBeGreaterThanOrEqual(2);
    expect(looks).toBeLessThanOrEqual(3);
  });
});

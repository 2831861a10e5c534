/**
 * The watched-folder helper behind the session follower, the project folder watcher and the
 * status-file watch: a folder that appears late, one watch however many ask, no watch left after
 * stop(), passes that never overlap, and trailing passes that find a write the watch's throttle
 * dropped. Fake watch, ManualClock: nothing waits on the wall clock.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/core/util/clock";
import type { WatchFactory } from "../../src/core/util/fileWatch";
import { SafetyPoll } from "../../src/core/util/safetyPoll";
import { type FolderChanges, TRAILING_LOOK_MS, WatchedFolder } from "../../src/core/util/watchedFolder";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

function fakeWatch() {
  const made: { closed: boolean; report: (path: string) => void; ready: () => void }[] = [];
  const factory: WatchFactory = (_root, accept, onChange) => {
    let ready!: () => void;
    const entry = { closed: false, report: (p: string) => accept(p) && onChange(p), ready: () => ready() };
    made.push(entry);
    return {
      ready: new Promise<void>((r) => (ready = r)),
      close: async () => void (entry.closed = true),
    };
  };
  return { factory, made };
}

function setup(dir: string, look: (c: FolderChanges) => Promise<boolean> = async () => false) {
  const clock = new ManualClock();
  const watch = fakeWatch();
  const passes: FolderChanges[] = [];
  const folder = new WatchedFolder({
    dir,
    accept: (p) => p.endsWith(".jsonl"),
    look: (c) => (passes.push(c), look(c)),
    watch: watch.factory,
    clock,
    poll: new SafetyPoll({ clock, baseMs: 1000 }),
  });
  return { folder, clock, watch, passes };
}

const flush = () => new Promise((r) => setImmediate(r));

describe("WatchedFolder", () => {
  it("waits for a folder that does not exist yet, then watches it from the next poll", async () => {
    const dir = join(tempDir(), "later");
    const { folder, clock, watch, passes } = setup(dir);
    await folder.start();
    expect(watch.made).toHaveLength(0);
    expect(passes).toHaveLength(1);
    mkdirSync(dir);
    clock.advance(1000);
    await until(() => watch.made.length === 1);
    watch.made[0]?.ready();
    await until(() => passes.length === 2);
    await folder.stop();
  });

  it("sets up one watch however many callers ask at once", async () => {
    const { folder, watch } = setup(tempDir());
    const asked = [folder.ensureWatch(), folder.ensureWatch(), folder.ensureWatch()];
    await until(() => watch.made.length > 0);
    for (const made of watch.made) made.ready();
    await Promise.all(asked);
    await new Promise((r) => setTimeout(r, 20)); // any second setup has long finished its stat
    expect(watch.made).toHaveLength(1);
    await folder.stop();
  });

  it("closes a watch still being set up when stop() comes", async () => {
    const { folder, watch } = setup(tempDir());
    const asked = folder.ensureWatch();
    await until(() => watch.made.length > 0);
    const stopping = folder.stop();
    watch.made[0]?.ready();
    await Promise.all([asked, stopping]);
    expect(watch.made.map((w) => w.closed)).toEqual([true]);
  });

  it("never runs two passes at once: events during a pass make one more, with their paths", async () => {
    let release!: () => void;
    let running = 0;
    let overlapped = false;
    const { folder, watch, passes } = setup(tempDir(), async () => {
      overlapped ||= ++running > 1;
      if (passes.length === 1) await new Promise<void>((r) => (release = r));
      running--;
      return false;
    });
    const started = folder.ensureWatch();
    await until(() => watch.made.length === 1);
    watch.made[0]?.ready();
    await started;
    const first = folder.look();
    await until(() => release !== undefined);
    watch.made[0]?.report("/x/a.jsonl");
    watch.made[0]?.report("/x/b.jsonl");
    watch.made[0]?.report("/x/notes.txt");
    release();
    await first;
    await flush();
    expect(overlapped).toBe(false);
    expect(passes.map((p) => [...p.reported])).toEqual([[], ["/x/a.jsonl", "/x/b.jsonl"]]);
    await folder.stop();
  });

  it("looks again shortly after a pass that found something, until it finds nothing for the throttle's span", async () => {
    let finds = 2;
    const { folder, clock, passes } = setup(tempDir(), async () => finds-- > 0);
    await folder.look(); // found: trailing passes follow
    for (let i = 0; i < 10; i++) {
      clock.advance(TRAILING_LOOK_MS);
      await flush();
    }
    const trailing = passes.length;
    // Found at 0 and 15 ms, then a pass every 15 ms until 65 ms after the last find: 30 … 90.
    expect(trailing).toBe(7);
    clock.advance(1000 * TRAILING_LOOK_MS);
    await flush();
    expect(passes.length).toBe(trailing);
    await folder.stop();
  });

  it("polls a quiet folder less and less (~120 passes an hour), and every second again after a file event", async () => {
    const { folder, clock, watch, passes } = setup(tempDir());
    const started = folder.start();
    await until(() => watch.made.length === 1);
    watch.made[0]?.ready();
    await started;
    for (let s = 0; s < 3600; s++) {
      clock.advance(1000);
      await flush();
    }
    expect(passes.length).toBeLessThanOrEqual(130);
    watch.made[0]?.report("/x/a.jsonl");
    await flush();
    const afterEvent = passes.length;
    clock.advance(1000);
    // The poll's next pass, a second after the event (after its stat of the folder: is the watch alive?).
    await until(() => passes.length === afterEvent + 1);
    await folder.stop();
  });

  it("keeps looking every second for a folder that is not there yet (no watch: the poll is all there is)", async () => {
    const { folder, clock, passes } = setup(join(tempDir(), "later"));
    await folder.start();
    for (let s = 0; s < 60; s++) {
      clock.advance(1000);
      await until(() => passes.length === s + 2);
    }
    await folder.stop();
  });

  it("without a pass that found anything there are no extra passes", async () => {
    const { folder, clock, passes } = setup(tempDir());
    await folder.look();
    clock.advance(TRAILING_LOOK_MS * 10);
    await flush();
    expect(passes).toHaveLength(1);
    await folder.stop();
  });
});

const until = (probe: () => boolean) => vi.waitFor(() => expect(probe()).toBe(true), { timeout: 2000, interval: 5 });

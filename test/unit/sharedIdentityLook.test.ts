/**
 * The shared poll checks many followers of one folder on one wake-up (fifty agents' transcripts in
 * one project folder): their looks at whether the folder is still the one watched share one stat,
 * and a folder made again is still found by each of them (its watch dropped and set up anew).
 */
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/core/util/clock";
import { localDisk } from "../../src/core/util/localDisk";
import type { WatchFactory } from "../../src/core/util/fileWatch";
import { SafetyPoll } from "../../src/core/util/safetyPoll";
import { WatchedFolder } from "../../src/core/util/watchedFolder";
import { useTempDirs } from "../support/tempDir";


const tempDir = useTempDirs();

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("followers of one folder, polled together", () => {
  it("look at the folder with one stat, and each finds it made again", async () => {
    const dir = join(tempDir(), "project");
    mkdirSync(dir);
    const clock = new ManualClock();
    const poll = new SafetyPoll({ clock, baseMs: 1000 });
    let watches = 0;
    const factory: WatchFactory = () => (watches++, { ready: Promise.resolve(), close: async () => undefined });
    const folders = Array.from({ length: 20 }, () => new WatchedFolder({ dir, accept: () => true, look: async () => false, watch: factory, clock, poll }));
    for (const f of folders) await f.start();
    expect(watches).toBe(20);
    const stat = vi.spyOn(localDisk, "stat");
    const statsOfDir = () => stat.mock.calls.filter(([p]) => p === dir).length;

    stat.mockClear();
    clock.advance(1000);
    await until(() => statsOfDir() >= 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(statsOfDir()).toBe(1);
    expect(watches).toBe(20);

    // Another folder in its place: every follower drops its dead watch and watches the new one.
    renameSync(dir, `${dir}-old`);
    mkdirSync(dir);
    clock.advance(5000);
    await until(() => watches === 40);
    for (const f of folders) await f.stop();
  });
});

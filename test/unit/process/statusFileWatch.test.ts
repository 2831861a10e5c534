/**
 * The process poll's read of each bound status file (StatusFileWatch.readFor, every second per
 * agent): a file unchanged since its last read (same identity, size and times, its mtime old enough
 * to trust) is not read and parsed again; one rewritten in place, even at the same size and with its
 * write event lost, is read and its new status believed.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StatusFileWatch } from "../../../src/core/process/statusFileWatch";
import { ManualClock } from "../../../src/core/util/clock";
import { localDisk } from "../../../src/core/util/localDisk";
import { useTempDirs } from "../../support/tempDir";

const reads = { count: 0 };
const readText = localDisk.readText.bind(localDisk);
vi.spyOn(localDisk, "readText").mockImplementation((path: string, maxBytes: number) => {
  reads.count++;
  return readText(path, maxBytes);
});

const tempDir = useTempDirs();
const watches: StatusFileWatch[] = [];
afterEach(async () => {
  for (const w of watches.splice(0)) await w.stop();
});

function setup() {
  const configDir = tempDir();
  mkdirSync(join(configDir, "sessions"));
  const file = join(configDir, "sessions", "101.json");
  const watch = new StatusFileWatch({
    configDir,
    platform: "linux",
    clock: new ManualClock(0),
    watch: () => ({ ready: Promise.resolve(), close: async () => {} }),
    onFileChanged: async () => false,
  });
  watches.push(watch);
  /** The CLI writes its status (in place); stamped `secondsAgo` (old enough to trust) unless told 0. */
  const write = (status: string, secondsAgo = 60) => {
    writeFileSync(file, JSON.stringify({ pid: 101, procStart: "10100", sessionId: "s-1", status }));
    if (secondsAgo === 0) return;
    const then = Date.now() / 1000 - secondsAgo;
    utimesSync(file, then, then);
  };
  const claude = { pid: 101, ppid: 100, name: "claude", startTime: "10100" };
  return { watch, write, claude };
}

describe("StatusFileWatch.readFor (the process poll)", () => {
  it("does not read a status file again while it is unchanged", async () => {
    const { watch, write, claude } = setup();
    write("busy");
    expect((await watch.readFor(claude))?.status).toBe("busy");
    const after = reads.count;
    for (let i = 0; i < 5; i++) expect((await watch.readFor(claude))?.status).toBe("busy");
    expect(reads.count).toBe(after);
  });

  it("reads a file rewritten in place at the same size whose event was lost, and believes its new status", async () => {
    const { watch, write, claude } = setup();
    write("busy", 60);
    expect((await watch.readFor(claude))?.status).toBe("busy");
    write("idle", 30); // busy and idle: four letters each, the same size
    expect((await watch.readFor(claude))?.status).toBe("idle");
  });

  it("reads a file written moments ago every time: its times may not show a rewrite yet", async () => {
    const { watch, write, claude } = setup();
    write("busy", 0);
    await watch.readFor(claude);
    const after = reads.count;
    await watch.readFor(claude);
    expect(reads.count).toBe(after + 1);
  });
});

/**
 * One watch per folder however many follow sessions in it (fifty agents in one workspace held fifty
 * chokidar watches on its project folder, each re-reading the folder at every write): each follower
 * still hears its own files only, the watch goes with its last follower, and a folder made again
 * gets a watch of its own (a dead one is never handed back).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import type { WatchFactory } from "../../src/core/util/fileWatch";
import { sharedPerFolder } from "../../src/core/util/sharedWatch";
import { useTempDirs } from "../support/tempDir";
import { waitForChange } from "../support/waitFor";

const tempDir = useTempDirs();

/** A factory that counts its watches and lets the test report a path to them. */
function countingFactory() {
  const open: { root: string; accept: (p: string) => boolean; onChange: (p: string) => void; closed: boolean }[] = [];
  const factory: WatchFactory = (root, accept, onChange) => {
    const watch = { root, accept, onChange, closed: false };
    open.push(watch);
    return { ready: Promise.resolve(), close: async () => void (watch.closed = true) };
  };
  const report = (path: string) => {
    for (const w of open) if (!w.closed && w.accept(path)) w.onChange(path);
  };
  return { factory, open, report };
}

describe("one watch per folder", () => {
  it("fifty followers of one folder share one watch; each hears its own file only; it closes with the last", async () => {
    const dir = tempDir();
    const { factory, open, report } = countingFactory();
    const shared = sharedPerFolder(factory);
    const heard: string[][] = Array.from({ length: 50 }, () => []);
    const watches = heard.map((paths, i) =>
      shared(
        dir,
        (p) => p === join(dir, `s${i}.jsonl`),
        (p) => paths.push(p),
      ),
    );
    expect(open).toHaveLength(1);
    report(join(dir, "s7.jsonl"));
    report(join(dir, "someone-else.jsonl"));
    expect(heard[7]).toEqual([join(dir, "s7.jsonl")]);
    expect(heard.filter((h) => h.length > 0)).toHaveLength(1);
    for (const w of watches.slice(1)) await w.close();
    expect(open[0]?.closed).toBe(false);
    await watches[0]?.close();
    expect(open[0]?.closed).toBe(true);
    // A follower that comes after the last left gets a watch again.
    shared(
      dir,
      () => true,
      () => undefined,
    );
    expect(open).toHaveLength(2);
  });

  it("asks each follower about a path once, however often it is written; one who joins or leaves is heard or not from the next event", async () => {
    const dir = tempDir();
    const { factory, report } = countingFactory();
    const shared = sharedPerFolder(factory);
    let asked = 0;
    const heard: string[][] = Array.from({ length: 3 }, () => []);
    const follow = (i: number) =>
      shared(
        dir,
        (p) => (asked++, p === join(dir, `s${i}.jsonl`)),
        (p) => heard[i]!.push(p),
      );
    const [first] = [follow(0), follow(1)];
    for (let n = 0; n < 10; n++) report(join(dir, "s0.jsonl"));
    expect(heard[0]).toHaveLength(10);
    expect(asked).toBe(2);
    follow(2);
    report(join(dir, "s2.jsonl"));
    expect(heard[2]).toEqual([join(dir, "s2.jsonl")]);
    await first!.close();
    report(join(dir, "s0.jsonl"));
    expect(heard[0]).toHaveLength(10);
  });

  it("a folder deleted and made again is watched anew for who arms after it; the dead watch stays with who still holds it", async () => {
    const dir = join(tempDir(), "project");
    mkdirSync(dir);
    const { factory, open } = countingFactory();
    const shared = sharedPerFolder(factory);
    const a = shared(
      dir,
      () => true,
      () => undefined,
    );
    const b = shared(
      dir,
      () => true,
      () => undefined,
    );
    rmSync(dir, { recursive: true });
    // A finds its folder gone and drops its watch (util/watchedFolder.ts), then arms again once it is back.
    await a.close();
    mkdirSync(dir);
    shared(
      dir,
      () => true,
      () => undefined,
    );
    expect(open).toHaveLength(2);
    expect(open[0]?.closed).toBe(false);
    await b.close();
    expect(open[0]?.closed).toBe(true);
    expect(open[1]?.closed).toBe(false);
  });

  it("two real followers in one project folder (the shared chokidar watch) each see appends to their own transcript", async () => {
    const dir = tempDir();
    const paths = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
    for (const p of paths) writeFileSync(p, "");
    const followers = paths.map((p) => new SessionFollower(p, { restore: false }));
    for (const f of followers) await f.start();
    try {
      const prompt = (text: string) =>
        `${JSON.stringify({ type: "user", uuid: `u-${text}`, sessionId: "s", timestamp: new Date().toISOString(), message: { role: "user", content: text } })}\n`;
      for (const [i, follower] of followers.entries()) {
        const seen = waitForChange(
          (cb) => follower.onDidChange(cb).dispose,
          () => follower.state.status === "active",
          5000,
          `follower ${i} sees its prompt`,
        );
        appendFileSync(paths[i] as string, prompt(`task ${i}`));
        await seen;
      }
    } finally {
      for (const f of followers) await f.stop();
    }
  });
});

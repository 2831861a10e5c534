/** The Sessions view's list: glanced at first, completed in the background, kept in an index file. */
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { SessionIndex } from "../../../src/core/sessions/sessionIndex";
import { readSessionDigest } from "../../../src/core/sessions/sessionDigestReader";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const RENAMED_ID = recordedSession("rename-resume").id;
const SEVERAL_ID = recordedSession("several-tools").id;

const tempDir = useTempDirs();

function project(): { dir: string; renamed: string; several: string } {
  const dir = join(tempDir(), "-home-user-project");
  mkdirSync(dir);
  const renamed = join(dir, `${RENAMED_ID}.jsonl`);
  copyFileSync(recordedSession("rename-resume").path, renamed);
  const several = join(dir, `${SEVERAL_ID}.jsonl`);
  copyFileSync(recordedSession("several-tools").path, several);
  return { dir, renamed, several };
}

describe("the sessions index", () => {
  it("lists sessions newest first from a glance, then fills in each one's digest and keeps it for the next window", async () => {
    const { dir, renamed } = project();
    const indexFile = join(tempDir(), "storage", "sessions-index.json");
    const index = new SessionIndex(indexFile);
    const listed = await index.list([dir]);
    expect(listed.map((e) => e.glance.firstPrompt)).toEqual(["Plan the billing fix", expect.any(String)]);
    expect(listed.every((e) => e.digest === undefined)).toBe(true);
    const filled: string[] = [];
    await index.fill(listed, (entry) => filled.push(`${entry.glance.title ?? entry.glance.firstPrompt}: ${entry.digest?.turns} turns`));
    expect(filled[0]).toBe("Billing fix: 2 turns");
    expect(filled).toHaveLength(2);

    // Another window: the digests come from the index file, no transcript is read whole.
    const again = await new SessionIndex(indexFile).list([dir]);
    expect(again.map((e) => e.digest?.turns)).toEqual([2, expect.any(Number)]);

    // A session that grew is glanced at again and waits for its new digest; one deleted is gone.
    appendFileSync(
      renamed,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "More" }, timestamp: "2026-11-26T08:00:00.000Z", uuid: "u9" })}\n`,
    );
    rmSync(join(dir, `${SEVERAL_ID}.jsonl`));
    const changed = await new SessionIndex(indexFile).list([dir]);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.digest).toBeUndefined();
    expect(changed[0]!.glance.lastActiveAt).toBe(Date.parse("2026-11-26T08:00:00.000Z"));
  });

  it("reads a session that grew on from where it stopped, and agrees with a whole read", async () => {
    const { dir, renamed } = project();
    const index = new SessionIndex(undefined);
    await index.fill(await index.list([dir]), () => undefined);
    appendFileSync(
      renamed,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "Third prompt" }, timestamp: "2026-11-26T08:00:00.000Z", uuid: "u9", cwd: "/home/user/project" })}\n`,
    );
    const grown = (await index.list([dir])).filter((e) => !e.digest);
    expect(grown.map((e) => e.path)).toEqual([renamed]);
    let digest;
    await index.fill(grown, (e) => (digest = e.digest));
    expect(digest).toMatchObject({ turns: 3, prompts: ["Plan the billing fix", "Continue the billing fix", "Third prompt"] });
    expect(digest).toEqual(await readSessionDigest(renamed));
  });

  it("reads every step of a big session into one buffer, even while a second fill overlaps the first", async () => {
    const { dir, several } = project();
    // Four megabytes: sixteen of the fill's 256 KB steps. A new buffer per step was memory outside
    // V8's heap, and a full garbage collection (an event-loop stall) every few dozen megabytes.
    const body = readFileSync(several);
    for (let size = body.length; size < 4 * 1024 * 1024; size += body.length) appendFileSync(several, body);
    const big = vi.spyOn(Buffer, "allocUnsafe");
    const index = new SessionIndex(undefined);
    const listed = await index.list([dir]);
    const digests: Record<string, number | undefined> = {};
    const first = index.fill(listed, (e) => (digests[e.path] = e.digest?.turns));
    await new Promise((r) => setImmediate(r)); // the first fill is reading
    const second = index.fill(listed, (e) => (digests[e.path] = e.digest?.turns));
    await Promise.all([first, second]);
    const bigBuffers = big.mock.calls.filter(([size]) => size >= 64 * 1024).length;
    big.mockRestore();
    expect(bigBuffers).toBe(1);
    expect(digests[several]).toBe((await readSessionDigest(several)).turns);
    expect(Object.keys(digests)).toHaveLength(2);
  });

  it("rebuilds a damaged index, and skips folders that do not exist and files that are not sessions", async () => {
    const { dir } = project();
    const indexFile = join(tempDir(), "sessions-index.json");
    writeFileSync(indexFile, "{ not json");
    mkdirSync(join(dir, "folder.jsonl"));
    writeFileSync(join(dir, "empty.jsonl"), "");
    const logs: string[] = [];
    const listed = await new SessionIndex(indexFile, (m) => logs.push(m)).list([dir, join(dir, "missing")]);
    expect(listed).toHaveLength(2);
    expect(logs.join("\n")).toMatch(/unreadable and is rebuilt/);
  });
});

/**
 * The Sessions index on disk: JSON lines written and read a slice at a time, so a window with
 * thousands of sessions never holds its event loop for the whole file (one JSON text of 5,000
 * sessions took ~30 ms to write and as long to parse, at the end of every fill).
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INDEX_VERSION, readIndexFile, type StoredEntry, writeIndexFile } from "../../../src/core/sessions/sessionIndexFile";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

function entries(count: number): Map<string, StoredEntry> {
  const map = new Map<string, StoredEntry>();
  for (let i = 0; i < count; i++) {
    map.set(`/p/${i}.jsonl`, {
      size: 1000 + i,
      mtimeMs: 5 + i,
      ino: i,
      glance: { sessionId: `s${i}`, firstPrompt: `Fix issue ${i}` },
      digest: { turns: i % 7 } as unknown as StoredEntry["digest"],
    });
  }
  return map;
}

/** Turns of the event loop while `work` runs. */
async function turnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work;
  done = true;
  return turns;
}

describe("the sessions index file", () => {
  it("writes 5,000 sessions and reads them back, giving the event loop turns all along", async () => {
    const file = join(tempDir(), "storage", "sessions-index.json");
    const written = entries(5000);
    expect(await turnsDuring(writeIndexFile(file, written))).toBeGreaterThan(10);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    let read: Map<string, StoredEntry> | undefined;
    expect(await turnsDuring(readIndexFile(file).then((r) => (read = r)))).toBeGreaterThan(10);
    expect(read).toEqual(written);
  });

  it("skips a damaged line, and reads an index of the old version (one JSON text) as none", async () => {
    const file = join(tempDir(), "sessions-index.json");
    await writeIndexFile(file, entries(3));
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = lines[2]!.slice(0, 20);
    writeFileSync(file, lines.join("\n"));
    expect([...(await readIndexFile(file)).keys()]).toEqual(["/p/0.jsonl", "/p/2.jsonl"]);

    writeFileSync(file, JSON.stringify({ version: 1, entries: { "/p/0.jsonl": {} } }));
    expect((await readIndexFile(file)).size).toBe(0);
    // An index of the version before (working time from turn_duration alone) is rebuilt too.
    writeFileSync(file, `${JSON.stringify({ version: 2 })}\n${lines[1]}\n`);
    expect((await readIndexFile(file)).size).toBe(0);
    expect(INDEX_VERSION).toBe(3);
  });

  it("says a file that is not an index is not one (its owner logs and rebuilds), and a missing one is empty", async () => {
    const file = join(tempDir(), "sessions-index.json");
    expect((await readIndexFile(file)).size).toBe(0);
    writeFileSync(file, "{ not json");
    await expect(readIndexFile(file)).rejects.toThrow(/not a sessions index/);
  });
});

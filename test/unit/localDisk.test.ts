/**
 * The live path's small file calls (util/localDisk.ts): done at once only on a local file system
 * once its kind is known, through the pool on a network or bridged one (where a call may block the
 * extension host), on other platforms, and for good after a call that took too long; a transcript
 * reads the same either way, and a missing file is an error to catch, never a throw.
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineReader } from "../../src/core/transcript/lineReader";
import { LocalDisk, SLOW_CALL_MS } from "../../src/core/util/localDisk";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();
const EXT4 = 0xef53;
const NFS = 0x6969;
const NINE_P = 0x01021997; // WSL2's /mnt/c
const FUSE = 0x65735546;

const settle = () => new Promise((r) => setTimeout(r, 5));

/** Two disks for one folder: one that makes its calls at once (ext4), one through the pool (NFS). */
async function bothDisks(dir: string) {
  const atOnce = new LocalDisk({ platform: "linux", fileSystemOf: async () => EXT4 });
  const pooled = new LocalDisk({ platform: "linux", fileSystemOf: async () => NFS });
  atOnce.modeOf(dir);
  pooled.modeOf(dir);
  await settle();
  return { atOnce, pooled };
}

describe("which calls are made at once", () => {
  it("a local folder's, once its kind is known; until then, through the pool", async () => {
    const dir = tempDir();
    const disk = new LocalDisk({ platform: "linux", fileSystemOf: async () => EXT4 });
    expect(disk.modeOf(dir)).toBe("pooled");
    await settle();
    expect(disk.modeOf(dir)).toBe("at once");
  });

  it.each([
    ["NFS", NFS],
    ["9p (WSL2's /mnt/c)", NINE_P],
    ["FUSE", FUSE],
  ])("never a folder on %s: a call there may block the extension host", async (_name, kind) => {
    const dir = tempDir();
    const disk = new LocalDisk({ platform: "linux", fileSystemOf: async () => kind });
    disk.modeOf(dir);
    await settle();
    expect(disk.modeOf(dir)).toBe("pooled");
  });

  it("never on a platform whose statfs kinds are not known", async () => {
    const disk = new LocalDisk({ platform: "darwin", fileSystemOf: async () => EXT4 });
    disk.modeOf("/Users/someone");
    await settle();
    expect(disk.modeOf("/Users/someone")).toBe("pooled");
  });

  it("a folder not there yet has the kind of its nearest folder that is, asked once", async () => {
    const asked: string[] = [];
    const disk = new LocalDisk({
      platform: "linux",
      fileSystemOf: async (dir) => {
        asked.push(dir);
        if (dir !== "/projects") throw Object.assign(new Error("no such folder"), { code: "ENOENT" });
        return EXT4;
      },
    });
    const subagents = "/projects/session-1/subagents";
    disk.modeOf(subagents);
    await settle();
    expect(disk.modeOf(subagents)).toBe("at once");
    for (let i = 0; i < 10; i++) disk.modeOf(subagents);
    await settle();
    expect(asked).toEqual([subagents, "/projects/session-1", "/projects"]);
  });

  it("a folder whose kind cannot be told goes through the pool, and is not asked again", async () => {
    let asked = 0;
    const disk = new LocalDisk({
      platform: "linux",
      fileSystemOf: async () => {
        asked++;
        throw Object.assign(new Error("permission denied"), { code: "EACCES" });
      },
    });
    disk.modeOf("/secret");
    await settle();
    for (let i = 0; i < 10; i++) expect(disk.modeOf("/secret")).toBe("pooled");
    await settle();
    expect(asked).toBe(1);
  });

  it("a folder whose call took too long goes back to the pool for good", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.json"), "{}");
    let now = 0;
    let slow = false;
    const disk = new LocalDisk({ platform: "linux", fileSystemOf: async () => EXT4, now: () => (slow ? (now += SLOW_CALL_MS + 1) : now) });
    disk.modeOf(dir);
    await settle();
    expect(disk.modeOf(dir)).toBe("at once");
    slow = true;
    expect(await disk.readText(join(dir, "a.json"), 1024)).toBe("{}");
    slow = false;
    expect(disk.modeOf(dir)).toBe("pooled");
    // Still after a day of other folders (one a session) has been learned.
    for (let i = 0; i < 3000; i++) disk.modeOf(`/projects/session-${i}/subagents`);
    await settle();
    expect(disk.modeOf("/projects/session-2999/subagents")).toBe("at once");
    expect(disk.modeOf(dir)).toBe("pooled");
  });
});

describe("a call made at once", () => {
  it("reports a missing file as a rejection with its code, as the pool does", async () => {
    const dir = tempDir();
    const disk = new LocalDisk({ platform: "linux", fileSystemOf: async () => EXT4 });
    disk.modeOf(dir);
    await settle();
    const missing = join(dir, "gone.jsonl");
    let call: Promise<unknown> | undefined;
    expect(() => (call = disk.stat(missing))).not.toThrow();
    await expect(call).rejects.toMatchObject({ code: "ENOENT" });
    await expect(disk.open(missing)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(disk.readText(missing, 1024)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reads a small file's text whole, at once and through the pool, and refuses one over its bound without reading it all", async () => {
    const dir = tempDir();
    const { atOnce, pooled } = await bothDisks(dir);
    const small = join(dir, "101.json");
    const status = JSON.stringify({ pid: 101, status: "busy", note: "é".repeat(100) });
    writeFileSync(small, status);
    const big = join(dir, "102.json");
    writeFileSync(big, `${status}${" ".repeat(200_000)}`);
    for (const disk of [atOnce, pooled]) {
      expect(await disk.readText(small, Buffer.byteLength(status))).toBe(status);
      await expect(disk.readText(small, Buffer.byteLength(status) - 1)).rejects.toMatchObject({ code: "EFBIG" });
      await expect(disk.readText(big, 64 * 1024)).rejects.toMatchObject({ code: "EFBIG" });
    }
  });

  it("reads a transcript as the pool does: appends, a rewrite, a deletion", async () => {
    const dir = tempDir();
    const { atOnce, pooled } = await bothDisks(dir);
    expect(atOnce.modeOf(dir)).toBe("at once");
    const file = join(dir, "session.jsonl");
    const readers = [new LineReader(file, { disk: atOnce }), new LineReader(file, { disk: pooled })];
    const readAll = () =>
      Promise.all(
        readers.map(async (r) => {
          const got = await r.read();
          return { ...got, lines: got.lines.map(String) };
        }),
      );

    writeFileSync(file, '{"n":1}\n{"n":2}\n{"n":');
    const first = await readAll();
    expect(first[0]).toEqual({ lines: ['{"n":1}', '{"n":2}'], more: false, reset: false, missing: false });
    expect(first[1]).toEqual(first[0]);

    appendFileSync(file, "3}\n");
    const second = await readAll();
    expect(second[0]?.lines).toEqual(['{"n":3}']);
    expect(second[1]).toEqual(second[0]);

    // Rewritten with longer content: not growth.
    writeFileSync(file, '{"m":"a new session that is longer than the old one"}\n');
    const third = await readAll();
    expect(third[0]).toMatchObject({ reset: true, lines: ['{"m":"a new session that is longer than the old one"}'] });
    expect(third[1]).toEqual(third[0]);

    rmSync(file);
    const fourth = await readAll();
    expect(fourth[0]).toMatchObject({ missing: true, reset: true });
    expect(fourth[1]).toEqual(fourth[0]);
  });
});

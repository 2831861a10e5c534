/**
 * The walk's records (folderWalks.ts) on their own, on the real disk: a walk through them finds
 * what a walk reading every folder finds, after every kind of change; a folder unchanged since it
 * was read (and settled) is not read again; and on a filesystem whose times are not this kernel's
 * own (ramfs stands in for one outside the list; root only) nothing is kept.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { FolderWalks } from "../../../src/core/sandbox";
import { nestedRepositories } from "../../../src/core/sandbox/nestedRepositories";

let top: string;
afterEach(() => rmSync(top, { recursive: true, force: true }));

/** What a walk with no records finds: the reference. */
const fresh = async (root: string) => (await nestedRepositories(root, new Set(), undefined, new FolderWalks())).found.sort();
const through = async (walks: FolderWalks, root: string) => (await nestedRepositories(root, new Set(), undefined, walks)).found.sort();

describe("the walk's records", () => {
  it("find what a full read finds, after each kind of change", async () => {
    top = mkdtempSync(join(tmpdir(), "arcadia-walks-"));
    for (const f of ["a/b/c", "d/e", "f"]) mkdirSync(join(top, f), { recursive: true });
    const walks = new FolderWalks();
    await sleep(150);
    expect(await through(walks, top)).toEqual([]);
    const changes: (() => void)[] = [
      () => mkdirSync(join(top, "a/b/c/.git")),
      () => writeFileSync(join(top, "d/e/.git"), "gitdir: ../../x\n"),
      () => renameSync(join(top, "a"), join(top, "g")),
      () => symlinkSync("../f", join(top, "f/.git")),
      () => rmSync(join(top, "g/b/c/.git"), { recursive: true }),
      () => mkdirSync(join(top, "g/b/c/h/.git"), { recursive: true }),
      () => rmSync(join(top, "d"), { recursive: true }),
    ];
    for (const change of changes) {
      change();
      expect(await through(walks, top)).toEqual(await fresh(top));
      await sleep(150);
      expect(await through(walks, top)).toEqual(await fresh(top));
    }
    expect(await through(walks, top)).toEqual([join(top, "f/.git"), join(top, "g/b/c/h/.git")]);
  });

  it("read a settled, unchanged folder once, then only the folders that changed", async () => {
    top = mkdtempSync(join(tmpdir(), "arcadia-walks-"));
    for (const f of ["a/b", "c"]) mkdirSync(join(top, f), { recursive: true });
    const walks = new FolderWalks();
    await sleep(150);
    await through(walks, top);
    expect(walks.reads).toBe(4);
    await through(walks, top);
    expect(walks.reads).toBe(4); // settled when read, unchanged since: believed
    writeFileSync(join(top, "c/new.txt"), "x\n");
    await through(walks, top);
    expect(walks.reads).toBe(5); // only c
  });

  it.skipIf(process.getuid?.() !== 0)("keep nothing on a filesystem outside the list (ramfs)", async () => {
    top = mkdtempSync(join(tmpdir(), "arcadia-walks-"));
    execFileSync("mount", ["-t", "ramfs", "ramfs", top]);
    try {
      mkdirSync(join(top, "a"));
      await sleep(150);
      const walks = new FolderWalks();
      await through(walks, top);
      await through(walks, top);
      expect(walks.reads).toBe(4);
      expect(walks.size).toBe(0);
    } finally {
      execFileSync("umount", [top]);
    }
  });
});

/**
 * Attack class: a write lands somewhere other than the file the user reviewed, because a folder
 * or the file on its way was swapped for a symlink between the diff being shown and Accept.
 *
 * Each attack swaps at that exact moment (the fake diff reviewer hands the proposal to the test
 * before anything is accepted), and is first shown to work against a plain write (what the
 * adapters did before: mkdir -p + writeFile, following links): the content lands outside. Through
 * Arcadia the write is refused with a message the agent can act on, and nothing outside changes.
 * The deterministic attacks run both ways of checking: Linux's handle-based one (/proc/self/fd)
 * and the portable one. A loop with a folder flipping between a real folder and a link, racing
 * accepted writes, asserts that no write ever lands outside (handle-based: the portable way has a
 * window of microseconds, see checkedOpen.ts).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useProcFdForTests } from "../../../src/core/tools/checkedOpen";
import { type Harness, startHarness } from "../tools/toolHarness";
import { flipToSymlink } from "./support/symlinkFlipper";

let h: Harness;
let flipper: ChildProcess | undefined;
afterEach(async () => {
  flipper?.kill("SIGKILL");
  flipper = undefined;
  useProcFdForTests(undefined);
  await h?.close();
});

/** The write as the adapters did it before: folders made and the file written through any link. */
async function plainWrite(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** Starts write_file, waits for its diff, runs `swap`, accepts; the tool's answer. */
async function writeWithSwap(path: string, content: string, swap: () => void) {
  const proposed = h.diffs.next();
  const running = h.call("write_file", { path, content });
  const diff = await proposed;
  swap();
  h.diffs.accept(diff.id);
  return running;
}

const ways = process.platform === "linux" ? (["handle (/proc/self/fd)", "portable"] as const) : (["portable"] as const);

for (const way of ways) {
  describe.skipIf(process.platform === "win32")(`a write after Accept goes to the reviewed file only (${way})`, () => {
    const start = async () => {
      h = await startHarness();
      h.answerApprovals("deny");
      if (way === "portable") useProcFdForTests(false);
    };

    it("a new folder swapped for a link to outside before Accept", async () => {
      await start();
      // Unprotected: the same swap, then a plain write, lands outside.
      symlinkSync(h.outside, join(h.workspace, "demo"));
      await plainWrite(join(h.workspace, "demo", "report.md"), "x");
      expect(existsSync(join(h.outside, "report.md"))).toBe(true);
      rmSync(join(h.outside, "report.md"));

      const { isError, body } = await writeWithSwap("newfolder/report.md", "# report\n", () => symlinkSync(h.outside, join(h.workspace, "newfolder")));
      expect(isError).toBe(true);
      expect(body).toMatchObject({ path: "newfolder/report.md", path_changed: true });
      expect(body.message).toMatch(/newfolder\/report\.md was not written: .*newfolder is a symbolic link now.*propose the change again/);
      expect(readdirSync(h.outside)).toEqual([]);
    });

    it("an existing folder swapped for a link to a folder outside holding the same file", async () => {
      await start();
      mkdirSync(join(h.workspace, "docs"));
      writeFileSync(join(h.workspace, "docs", "notes.md"), "same\n");
      writeFileSync(join(h.outside, "notes.md"), "same\n");
      const { isError, body } = await writeWithSwap("docs/notes.md", "changed\n", () => {
        renameSync(join(h.workspace, "docs"), join(h.workspace, "docs-moved"));
        symlinkSync(h.outside, join(h.workspace, "docs"));
      });
      expect(isError).toBe(true);
      expect(body.path_changed).toBe(true);
      expect(readFileSync(join(h.outside, "notes.md"), "utf8")).toBe("same\n");
      // Unprotected: the plain write goes through the link.
      await plainWrite(join(h.workspace, "docs", "notes.md"), "changed\n");
      expect(readFileSync(join(h.outside, "notes.md"), "utf8")).toBe("changed\n");
    });

    it("the file itself swapped for a link to an outside file with the same text", async () => {
      await start();
      writeFileSync(join(h.workspace, "a.md"), "same\n");
      writeFileSync(join(h.outside, "a.md"), "same\n");
      const { isError, body } = await writeWithSwap("a.md", "changed\n", () => {
        rmSync(join(h.workspace, "a.md"));
        symlinkSync(join(h.outside, "a.md"), join(h.workspace, "a.md"));
      });
      expect(isError).toBe(true);
      expect(body.path_changed).toBe(true);
      expect(body.message).toMatch(/a\.md is a symbolic link now|leads to|replaced/);
      expect(readFileSync(join(h.outside, "a.md"), "utf8")).toBe("same\n");
      await plainWrite(join(h.workspace, "a.md"), "changed\n");
      expect(readFileSync(join(h.outside, "a.md"), "utf8")).toBe("changed\n");
    });

    it("the folder replaced by another real folder (same name, same text): not the reviewed one", async () => {
      await start();
      mkdirSync(join(h.workspace, "docs"));
      writeFileSync(join(h.workspace, "docs", "notes.md"), "same\n");
      const { isError, body } = await writeWithSwap("docs/notes.md", "changed\n", () => {
        renameSync(join(h.workspace, "docs"), join(h.workspace, "docs-old"));
        mkdirSync(join(h.workspace, "docs"));
        writeFileSync(join(h.workspace, "docs", "notes.md"), "same\n");
      });
      expect(isError).toBe(true);
      expect(body.message).toMatch(/no longer the folder that was there when the change was reviewed/);
      expect(readFileSync(join(h.workspace, "docs", "notes.md"), "utf8")).toBe("same\n");
    });

    it("the file swapped for a link after the path was checked, before the diff is shown: never proposed", async () => {
      await start();
      const file = join(h.workspace, "a.md");
      writeFileSync(file, "mine\n");
      writeFileSync(join(h.outside, "a.md"), "theirs\n");
      const stat = h.ports.files.stat.bind(h.ports.files);
      let swapped = false;
      h.ports.files.stat = async (p) => {
        if (!swapped && p === file) {
          swapped = true;
          rmSync(file);
          symlinkSync(join(h.outside, "a.md"), file);
        }
        return stat(p);
      };
      const { isError, body, text } = await h.call("write_file", { path: "a.md", content: "changed\n" });
      expect(isError).toBe(true);
      expect(body.path_changed).toBe(true);
      expect(text).not.toContain("theirs");
      expect(h.diffs.proposals).toEqual([]);
      expect(readFileSync(join(h.outside, "a.md"), "utf8")).toBe("theirs\n");
    });

    it("control: a reviewed write into new nested folders, and over an existing file, is written", async () => {
      await start();
      const created = await writeWithSwap("a/b/c/new.md", "new\n", () => undefined);
      expect(created.body).toMatchObject({ status: "ok", created: true });
      expect(readFileSync(join(h.workspace, "a", "b", "c", "new.md"), "utf8")).toBe("new\n");
      const replaced = await writeWithSwap("a/b/c/new.md", "newer\n", () => undefined);
      expect(replaced.body).toMatchObject({ status: "ok", created: false });
      expect(readFileSync(join(h.workspace, "a", "b", "c", "new.md"), "utf8")).toBe("newer\n");
    });

    // The portable way has a window of microseconds (checkedOpen.ts): no zero-leak claim to test there.
    if (way !== "portable") it("racing: a folder flipping between a real folder and a link to outside, 150 accepted writes, none lands outside", async () => {
      await start();
      const flip = join(h.workspace, "flip");
      mkdirSync(flip);
      // Another process flips `flip` as fast as it can: a real folder ↔ a link to outside.
      flipper = flipToSymlink(flip, h.outside);
      const outcomes = { written: 0, refused: 0 };
      for (let i = 0; i < 150; i++) {
        // Accepted the moment it is shown; the flipper decides what the path is by then.
        void h.diffs.next().then((d) => h.diffs.accept(d.id));
        const { isError } = await h.call("write_file", { path: `flip/report-${i}.md`, content: `report ${i}\n` });
        outcomes[isError ? "refused" : "written"]++;
      }
      flipper.kill("SIGKILL");
      expect(readdirSync(h.outside).filter((n) => n.startsWith("report-"))).toEqual([]);
      // The race really ran both ways (else this test would prove nothing).
      expect(outcomes.refused).toBeGreaterThan(0);
      expect(outcomes.written).toBeGreaterThan(0);
    });
  });
}

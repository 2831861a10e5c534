/**
 * Attack class: a read returns another file's content because a symlink was swapped in between
 * the path's check (inside the workspace, or the outside path the user approved) and the read.
 *
 * Deterministic: the swap happens at an exact point of the call (between the check and the read:
 * in the `stat` the tool makes after resolving the path, or while the user's approval of an
 * outside path is on screen), and a plain read at that point is shown to return the secret.
 * Racing: another process flips a file (and a folder) between its own content and a link to the
 * secret while read_file is called in a loop; the plain read leaks, Arcadia's never does. The
 * deterministic attacks run both ways of checking (Linux's /proc/self/fd handle, and the portable
 * one); the racing loops only the handle one, the only one without a window (checkedOpen.ts).
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
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

const SECRET = "SECRET-77e2-not-for-the-agent";

/** Runs `swap` once, the first time the tool stats `path`: after the path was checked, before the read. */
function swapAfterCheck(path: string, swap: () => void): void {
  const stat = h.ports.files.stat.bind(h.ports.files);
  let done = false;
  h.ports.files.stat = async (p) => {
    if (!done && p === path) {
      done = true;
      swap();
    }
    return stat(p);
  };
}

const ways = process.platform === "linux" ? (["handle (/proc/self/fd)", "portable"] as const) : (["portable"] as const);

for (const way of ways) {
  describe.skipIf(process.platform === "win32")(`a read returns only the checked file (${way})`, () => {
    const start = async () => {
      h = await startHarness();
      h.answerApprovals("deny");
      if (way === "portable") useProcFdForTests(false);
      writeFileSync(join(h.outside, "secret.txt"), `${SECRET}\n`);
    };

    it("the file swapped for a link to a secret after the check", async () => {
      await start();
      const file = join(h.workspace, "data.txt");
      writeFileSync(file, "public\n");
      const swap = () => {
        rmSync(file);
        symlinkSync(join(h.outside, "secret.txt"), file);
      };
      // Unprotected: a plain read after the same swap returns the secret.
      swap();
      expect(await readFile(file, "utf8")).toContain(SECRET);
      rmSync(file);
      writeFileSync(file, "public\n");

      swapAfterCheck(file, swap);
      const { isError, text, body } = await h.call("read_file", { path: "data.txt" });
      expect(isError).toBe(true);
      expect(text).not.toContain(SECRET);
      expect(body).toMatchObject({ path_changed: true });
      expect(body.message).toMatch(/data\.txt was not read: .*symbolic link.*read it again/);
    });

    it("a folder on the way swapped for a link to the secret's folder after the check", async () => {
      await start();
      mkdirSync(join(h.workspace, "notes"));
      writeFileSync(join(h.workspace, "notes", "secret.txt"), "public\n");
      swapAfterCheck(join(h.workspace, "notes", "secret.txt"), () => {
        renameSync(join(h.workspace, "notes"), join(h.workspace, "notes-moved"));
        symlinkSync(h.outside, join(h.workspace, "notes"));
      });
      const { isError, text } = await h.call("read_file", { path: "notes/secret.txt" });
      expect(isError).toBe(true);
      expect(text).not.toContain(SECRET);
      expect(await readFile(join(h.workspace, "notes", "secret.txt"), "utf8")).toContain(SECRET);
    });

    it("an approved outside path swapped while the approval was on screen reads nothing else", async () => {
      await start();
      mkdirSync(join(h.outside, "public"));
      mkdirSync(join(h.outside, "private"));
      writeFileSync(join(h.outside, "public", "a.txt"), "shareable\n");
      writeFileSync(join(h.outside, "private", "a.txt"), `${SECRET}\n`);
      h.answerApprovals(undefined);
      const asked = h.nextApproval();
      const running = h.call("read_file", { path: join(h.outside, "public", "a.txt") });
      const approval = await asked;
      expect(approval.subject).toBe(`Read: ${join(h.outside, "public", "a.txt")}`);
      renameSync(join(h.outside, "public"), join(h.outside, "public-old"));
      symlinkSync(join(h.outside, "private"), join(h.outside, "public"));
      h.approvals.decide(approval.id, "allow");
      const { isError, text } = await running;
      expect(isError).toBe(true);
      expect(text).not.toContain(SECRET);
    });

    it("control: ordinary reads, and reads of files reached through an in-workspace link, work", async () => {
      await start();
      mkdirSync(join(h.workspace, "src"));
      writeFileSync(join(h.workspace, "src", "a.ts"), "export const a = 1;\n");
      symlinkSync("src", join(h.workspace, "source"));
      expect((await h.call("read_file", { path: "src/a.ts" })).body).toMatchObject({ status: "ok", content: "export const a = 1;" });
      expect((await h.call("read_file", { path: "source/a.ts" })).body).toMatchObject({ status: "ok", content: "export const a = 1;" });
      expect((await h.call("list_files", { path: "source" })).body).toMatchObject({ entries: ["a.ts"] });
    });

    // The portable way has a window of microseconds (checkedOpen.ts): no zero-leak claim to test there.
    for (const target of way === "portable" ? [] : (["file", "folder"] as const)) {
      it(`racing: a ${target} flipping to a link to the secret, 300 reads, 0 leaks (a plain read leaks)`, async () => {
        await start();
        const flipped = target === "file" ? join(h.workspace, "data.txt") : join(h.workspace, "dir");
        const secretSide = target === "file" ? join(h.outside, "secret.txt") : h.outside;
        if (target === "file") writeFileSync(flipped, "public\n");
        else {
          mkdirSync(flipped);
          writeFileSync(join(flipped, "secret.txt"), "public\n");
        }
        const readPath = target === "file" ? "data.txt" : "dir/secret.txt";
        flipper = flipToSymlink(flipped, secretSide);

        // Unprotected, the same race leaks (shown so this test can fail). Tried for a while, not a number of
        // times: on a loaded machine the flipping process may not run for thousands of reads.
        let plainLeaks = 0;
        for (const until = Date.now() + 15_000; plainLeaks === 0 && Date.now() < until; ) {
          const text = await readFile(join(h.workspace, readPath), "utf8").catch(() => "");
          if (text.includes(SECRET)) plainLeaks++;
        }
        expect(plainLeaks, "a plain read in this race returns the secret").toBeGreaterThan(0);

        const outcomes = { leaked: 0, read: 0, refused: 0 };
        for (let i = 0; i < 300; i++) {
          const { isError, text } = await h.call("read_file", { path: readPath });
          if (text.includes(SECRET)) outcomes.leaked++;
          else outcomes[isError ? "refused" : "read"]++;
        }
        flipper.kill("SIGKILL");
        expect(outcomes.leaked).toBe(0);
        // Both sides of the race were met.
        expect(outcomes.read).toBeGreaterThan(0);
        expect(outcomes.refused).toBeGreaterThan(0);
        // 300 real reads against a flipping process: seconds on a loaded 2-core machine.
      }, 45_000);
    }
  });
}

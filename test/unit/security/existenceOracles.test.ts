/**
 * Attack class: an existence oracle. A tool that never reads a file outside the workspace can
 * still tell the agent whether one exists, and so, one guess at a time, map the user's home
 * (`~/.ssh/id_ed25519`? `~/.aws/credentials`?). search_files with a glob like
 * `../outside/secret*` answered `skipped_outside_files: 1` when the file existed and nothing when
 * it did not; a link planted in the workspace (a sandboxed command may make one) showed the
 * same through search_files' count and list_files' type ("dir/" or a file, or nothing).
 * Each answer is asked twice, the outside path existing and not: the two must be identical.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../tools/toolHarness";

let h: Harness;
afterEach(async () => h?.close());

/** `ask` with the outside secret present, then absent. */
async function bothWays(ask: () => Promise<unknown>): Promise<[unknown, unknown]> {
  writeFileSync(join(h.outside, "secret.txt"), "s\n");
  mkdirSync(join(h.outside, "keys"), { recursive: true });
  const present = await ask();
  rmSync(join(h.outside, "secret.txt"));
  rmSync(join(h.outside, "keys"), { recursive: true });
  return [present, await ask()];
}

describe.skipIf(process.platform === "win32")("nothing outside the workspace shows through whether it exists", () => {
  it("search_files with a glob that climbs out: refused the same either way", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "a.txt"), "s\n");
    for (const glob of ["../outside/secret*", "../outside/*.txt", "{..,x}/outside/secret.txt", "/etc/host*", "~/secret*"]) {
      const [present, absent] = await bothWays(() => h.call("search_files", { pattern: "s", glob }));
      expect(present, glob).toEqual(absent);
      expect((present as { isError: boolean }).isError, glob).toBe(true);
    }
  });

  it("search_files over links planted in the workspace: the same count either way", async () => {
    h = await startHarness();
    // As VS Code's findFiles (ripgrep, links followed) lists them: links to files included.
    h.ports.files = { ...h.ports.files, findFiles: async (root) => [join(root, "probe.txt")] };
    symlinkSync(join(h.outside, "secret.txt"), join(h.workspace, "probe.txt"));
    const [present, absent] = await bothWays(() => h.call("search_files", { pattern: "s" }));
    expect(present).toEqual(absent);
    expect((present as { body: { skipped_outside_files: number } }).body.skipped_outside_files).toBe(1);
  });

  it("list_files over links planted in the workspace: the same entries either way", async () => {
    h = await startHarness();
    symlinkSync(join(h.outside, "secret.txt"), join(h.workspace, "probe-file"));
    symlinkSync(join(h.outside, "keys"), join(h.workspace, "probe-dir"));
    const [present, absent] = await bothWays(() => h.call("list_files", {}));
    expect(present).toEqual(absent);
    expect((present as { body: { entries: string[] } }).body.entries).toEqual(["probe-dir", "probe-file"]);
  });

  it("controls: globs inside the folder search, links inside are listed as what they are", async () => {
    h = await startHarness();
    mkdirSync(join(h.workspace, "src", "deep"), { recursive: true });
    writeFileSync(join(h.workspace, "src", "deep", "a.ts"), "needle\n");
    symlinkSync(join(h.workspace, "src"), join(h.workspace, "source"));
    const found = await h.call("search_files", { pattern: "needle", glob: "src/**/*.ts" });
    expect(found.body.matches).toEqual([{ path: "src/deep/a.ts", line: 1, text: "needle" }]);
    expect((await h.call("list_files", {})).body.entries).toEqual(["source/", "src/"]);
  });
});

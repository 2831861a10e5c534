/**
 * The print the card's poll compares (core/git workTreePrint): it moves whenever a count of the work
 * tree could — an edit to a clean file, another edit to a file already changed (same status line),
 * an untracked file written again, a commit — and stays put when nothing changed (the poll counts
 * nothing then). The paths it stats are the ones git names, spaces and renames included. Real git.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { committedRepo, git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";
import { statusPaths, workTreePrint } from "../../../src/core/git/workTreePrint";

const tempDir = useTempDirs();

describe("a work tree's print", () => {
  it("moves with every change a count could see, and not without one", async () => {
    const repo = committedRepo(tempDir());
    const clean = await workTreePrint(repo);
    expect(await workTreePrint(repo)).toBe(clean);

    writeFileSync(join(repo, "README.md"), "# r\nmore\n");
    const edited = await workTreePrint(repo);
    expect(edited).not.toBe(clean);
    expect(await workTreePrint(repo)).toBe(edited);

    // The same status line (README.md modified) with other content: its size moved.
    writeFileSync(join(repo, "README.md"), "# r\nmore, and more\n");
    const again = await workTreePrint(repo);
    expect(again).not.toBe(edited);

    writeFileSync(join(repo, "notes with spaces.md"), "a\n");
    const untracked = await workTreePrint(repo);
    expect(untracked).not.toBe(again);
    writeFileSync(join(repo, "notes with spaces.md"), "a\nb\n");
    expect(await workTreePrint(repo)).not.toBe(untracked);

    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "more");
    const committed = await workTreePrint(repo);
    git(repo, "commit", "-q", "--allow-empty", "-m", "empty");
    expect(await workTreePrint(repo)).not.toBe(committed);
  });

  it("names the paths git lists: changed, renamed (the new name), untracked, with spaces", async () => {
    const repo = committedRepo(tempDir());
    writeFileSync(join(repo, "README.md"), "# r\nmore\n");
    git(repo, "mv", "src/App.tsx", "src/Main App.tsx");
    writeFileSync(join(repo, "src", "new file.ts"), "n\n");
    const status = git(repo, "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all");
    expect(statusPaths(status).sort()).toEqual(["README.md", "src/Main App.tsx", "src/new file.ts"]);
    renameSync(join(repo, "src", "Main App.tsx"), join(repo, "gone.tsx"));
    expect(await workTreePrint(repo)).toContain("\n-");
  });

  it("never throws on output it does not know", () => {
    expect(statusPaths("")).toEqual([]);
    expect(statusPaths("# branch.oid abc\0zzz\0" + "1 .M\0" + "2 R.\0")).toEqual([]);
  });
});

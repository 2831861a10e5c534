/**
 * Review's left side comes from `arcadia-base:` URIs, which anything able to open a URI can craft:
 * a ref that reads as a git option must not run as one (`git show --output=<file>` writes a file).
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileAtRef } from "../../../src/core/git/fileAtRef";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("a crafted Review URI", () => {
  it("a ref that is an option writes nothing and shows nothing; a commit id or HEAD shows the file", async () => {
    const repo = tempDir();
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "a.txt"), "at head\n");
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "0"], { cwd: repo });
    execFileSync("git", ["add", "a.txt"], { cwd: repo });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "1"], { cwd: repo });
    const marker = join(tempDir(), "written-by-git");
    for (const ref of [`--output=${marker}`, "-p", "HEAD~1..HEAD", "HEAD --output=x", ""]) {
      expect(await fileAtRef(repo, ref, "a.txt"), ref).toBe("");
    }
    expect(existsSync(marker)).toBe(false);
    expect(await fileAtRef(repo, { toString: () => "HEAD" }, "a.txt")).toBe("");
    expect(await fileAtRef(repo, "HEAD", "a.txt")).toBe("at head\n");
    const id = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    expect(await fileAtRef(repo, id, "a.txt")).toBe("at head\n");
    expect(await fileAtRef(repo, id, "missing.txt")).toBe("");
  });
});

/**
 * A new worktree gets the ignored files `.worktreeinclude` names, copied from the main checkout,
 * on a real repository with real git: only files git ignores there (never the user's untracked
 * work, never a file the list does not name, never another worktree's), links as links, and
 * nothing already in the worktree overwritten.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorktree } from "../../../src/core/git/worktreeCreate";
import { copyWorktreeIncludes } from "../../../src/core/git/worktreeInclude";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A repository whose main checkout holds ignored files (some named by .worktreeinclude) and untracked work. */
function repo(include: string | undefined): string {
  const root = realpathSync(tempDir());
  git(root, "init", "-q", "-b", "main");
  write(root, ".gitignore", ".env\nnode_modules/\nsecret.key\nlocal/\n/.claude/worktrees/\n");
  write(root, "src/a.ts", "a\n");
  if (include !== undefined) write(root, ".worktreeinclude", include);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  write(root, ".env", "API_URL=http://localhost\n");
  write(root, "node_modules/pkg/index.js", "module.exports = 1;\n");
  symlinkSync("../pkg/index.js", join(root, "node_modules", "pkg-link.js"));
  write(root, "secret.key", "not named, not copied\n");
  write(root, "local/settings.json", "{}\n");
  write(root, "local/other.json", "{}\n");
  write(root, "notes.txt", "the user's untracked work\n");
  return root;
}

describe("a new worktree's ignored files (.worktreeinclude)", () => {
  it("copies exactly the ignored files it names, links as links; not the user's untracked work, not what it does not name", async () => {
    const root = repo(".env\nnode_modules\nlocal/settings.json\nnotes.txt\n");
    const tree = await createWorktree(root, "fix-login");
    expect(tree.included).toEqual({ copied: [".env", "local/settings.json", "node_modules/pkg-link.js", "node_modules/pkg/index.js"], failed: [] });
    expect(readFileSync(join(tree.path, ".env"), "utf8")).toBe("API_URL=http://localhost\n");
    expect(readFileSync(join(tree.path, "node_modules/pkg/index.js"), "utf8")).toBe("module.exports = 1;\n");
    expect(lstatSync(join(tree.path, "node_modules/pkg-link.js")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(tree.path, "node_modules/pkg-link.js"))).toBe("../pkg/index.js");
    for (const absent of ["secret.key", "local/other.json", "notes.txt"]) expect(existsSync(join(tree.path, absent))).toBe(false);
  });

  it("never overwrites what the worktree has, and never copies another worktree's files", async () => {
    const root = repo(".env\n");
    const first = await createWorktree(root, "first");
    writeFileSync(join(first.path, ".env"), "changed in the worktree\n");
    expect(await copyWorktreeIncludes(root, first.path)).toEqual({ copied: [], failed: [] });
    expect(readFileSync(join(first.path, ".env"), "utf8")).toBe("changed in the worktree\n");
    const second = await createWorktree(root, "second");
    expect(second.included?.copied).toEqual([".env"]);
  });

  it("without a .worktreeinclude, a worktree gets nothing but what is committed", async () => {
    const root = repo(undefined);
    const tree = await createWorktree(root, "plain");
    expect(tree.included).toBeUndefined();
    expect(existsSync(join(tree.path, ".env"))).toBe(false);
  });
});

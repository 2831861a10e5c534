/**
 * A real git repository in a temp folder for tests: `main` with one commit of src/App.tsx and
 * README.md, and a `git` that never asks for an identity.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });

/** Makes the repository in `root` (an empty folder) and returns it. */
export function committedRepo(root: string): string {
  git(root, "init", "-q", "-b", "main");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "App.tsx"), "export const app = 1;\n");
  writeFileSync(join(root, "README.md"), "# r\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  return root;
}

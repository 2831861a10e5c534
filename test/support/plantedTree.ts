/** Runs a lint check script (scripts/check-*.mjs) on a throwaway tree of planted files, for the checks' own tests. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const repo = resolve(__dirname, "../..");

/**
 * Runs one of the repository's check scripts (`scripts/<name>`, taking `--root`) on a throwaway
 * tree holding `files` (path → content) in `root`: its exit status and output. How the lint's
 * checks are tested: planted files that must fail, the same tree without them that must pass.
 */
export function runCheckOnTree(script: string, root: string, files: Record<string, string>): { ok: boolean; output: string } {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  try {
    return { ok: true, output: execFileSync(process.execPath, [join(repo, "scripts", script), "--root", root], { encoding: "utf8", stdio: "pipe" }) };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

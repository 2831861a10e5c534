/**
 * Which paths of a work tree git ignores (its .gitignore files, info/exclude, the user's excludes),
 * asked of git itself rather than parsed again here: a watch of the work tree leaves them out
 * (node_modules, build output, a check's own logs), since they change no count and no snapshot.
 */
import { git, nulFields, runGit } from "./gitRunner";

/** The ignored paths there now, relative to `worktree` and `/`-separated; a folder wholly ignored is one entry (no trailing slash). */
export async function ignoredNow(worktree: string): Promise<string[]> {
  const out = await git(worktree, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]);
  return nulFields(out).map((p) => p.replace(/\/$/, ""));
}

/**
 * Those of `paths` (relative to `worktree`) that git ignores, whether they exist or not. A path git
 * quotes in its answer (a newline in its name) is taken as not ignored: at worst one look too many.
 */
export async function ignoredAmong(worktree: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await runGit(worktree, ["-c", "core.quotePath=false", "check-ignore", "--", ...paths]);
  // 0: some are ignored; 1: none is; anything else: git could not say.
  if (result.code === 1) return new Set();
  if (result.code !== 0) throw new Error(`git check-ignore failed (exit ${result.code}): ${result.stderr.trim() || "no output"}`);
  return new Set(result.stdout.split("\n").filter((p) => p !== ""));
}

/**
 * What an unasked command left behind that runs later, outside any sandbox: a new `.git` anywhere
 * in the folders it could write (a repository of its making, whose config VS Code's Git or the
 * user's next `git status` there follows). Every `.git` that existed when it started was read-only
 * to it (protectedPlaces.ts), so a new one is the only way; found by walking the same folders
 * again after it ended and comparing (its cost is the launch's walk again, measured in
 * bench/sandbox.ts), and said in plain words: what it made, and what in it git would run.
 * A folder the look cannot read is opened again when the command made it, else said to be
 * unchecked (unreadableFolders.ts): never passed as if empty.
 */
import { readdir } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { commonDirOf, gitDirOf, lastCoreValue } from "./gitPlaces";
import type { FolderWalks } from "./folderWalks";
import { nestedRepositories } from "./nestedRepositories";
import { lstatNow } from "./pathKind";
import { readOnlyAt } from "./protectedPlaces";
import type { RepositoriesBefore } from "./sandboxLayout";
import { commandCouldEnter, reopenMadeSince } from "./unreadableFolders";
import { readFile } from "node:fs/promises";

const WHY_PROTECTED: Record<string, string> = {
  ".mcp.json": "MCP servers Claude Code starts",
  ".envrc": "a script direnv runs when you enter the folder",
  ".gitmodules": "submodules git fetches and checks out",
  ".idea": "settings and run configurations of a JetBrains IDE",
};

/** Synchronous (pathKind.ts): a few names at the roots. */
const exists = (path: string) => lstatNow(path) !== undefined;

/** Config keys whose value git runs as a program. */
const RUNS_PROGRAMS = ["fsmonitor", "sshcommand", "editor", "pager", "askpass", "hookspath"];

export interface LeftBehind {
  /** The new `.git`. */
  path: string;
  /** In words, e.g. "created sub/.git with core.fsmonitor, a program git would run". */
  said: string;
  /** A folder the look could not read (no permission): what it holds is unknown. */
  unchecked?: true;
  /** It is a writable root itself (a workspace folder, the agent's worktree): never to be deleted. */
  root?: true;
}

/** `walks`: the records the walk believes, each folder's change time looked at again (folderWalks.ts). */
export async function leftBehind(repositories: RepositoriesBefore, walks?: FolderWalks): Promise<LeftBehind[]> {
  const before = new Set(repositories.found);
  const missing = repositories.missing ?? [];
  // Unknown launch moment: nothing is taken for the command's, every unreadable folder is reported.
  const reopen = repositories.since === undefined ? () => false : reopenMadeSince(repositories.since);
  const made = missing.map(exists);
  const after = await Promise.all(repositories.roots.map((root) => nestedRepositories(root, readOnlyAt(root), undefined, walks, reopen)));
  const out: LeftBehind[] = [];
  // Protected names it could create (files have no stand-in): MCP servers, direnv, submodules, an IDE's settings.
  for (const [i, path] of missing.entries()) {
    if (!made[i]) continue;
    const root = repositories.roots.find((r) => path.startsWith(`${r}/`)) ?? "";
    out.push({ path, said: `created ${relative(root, path)}, ${WHY_PROTECTED[basename(path)] ?? "which other programs act on"}` });
  }
  for (const [i, root] of repositories.roots.entries()) {
    for (const dotGit of after[i]!.found) {
      if (before.has(dotGit)) continue;
      out.push({ path: dotGit, said: `created ${relative(root, dotGit)}${await whatRuns(dotGit)}` });
    }
    for (const folder of after[i]!.unreadable) {
      if (!commandCouldEnter(folder, repositories.unreadable?.[folder], repositories.since)) continue;
      const name = relative(root, folder) || "the workspace folder itself";
      out.push({
        path: folder,
        said: `left ${name} unreadable: Arcadia could not look inside it for a repository or hook planted there, which git would run`,
        unchecked: true,
        ...(folder === root ? { root: true as const } : {}),
      });
    }
  }
  return out;
}

/** ", with core.fsmonitor, a program git would run" / ", with hooks: pre-commit" / "" (a repository, nothing set to run yet). */
async function whatRuns(dotGit: string): Promise<string> {
  const gitDir = await gitDirOf(dotGit);
  if (gitDir === undefined) return "";
  const common = await commonDirOf(gitDir);
  const said: string[] = [];
  const text = (await Promise.all([gitDir, common].filter((d) => d !== undefined).map((d) => readFile(join(d, "config"), "utf8").catch(() => "")))).join("\n");
  const keys = RUNS_PROGRAMS.filter((key) => lastCoreValue(text, key) !== undefined).map((key) => `core.${key}`);
  if (/^\s*\[filter\s|^\s*\[diff\s|^\s*\[include/im.test(text)) keys.push("filters or includes");
  if (keys.length > 0) said.push(`${keys.join(", ")}, ${keys.length > 1 ? "programs" : "a program"} git would run`);
  const hooks = (await readdir(join(gitDir, "hooks")).catch(() => [])).filter((name) => !name.endsWith(".sample"));
  if (hooks.length > 0) said.push(`hooks git runs on commit and checkout (${hooks.join(", ")})`);
  return said.length > 0 ? ` with ${said.join("; ")}` : "";
}

/**
 * A new worktree for an agent, laid out as Claude Code's own `--worktree` lays it out
 * (`.claude/worktrees/<name>` at the repository root, branch `worktree-<name>`), but created by
 * Arcadia with git so the agent's terminal itself starts in it: restart (`--resume`), the project
 * folder of its transcript, /clear and the status file's cwd all agree (docs/decisions.md,
 * Features). The base it branched from is kept in the branch's git config, so merge and the
 * card know it after a reload, and it goes with the branch.
 */
import { appendFile, readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { git, runGit } from "./gitRunner";
import { copyWorktreeIncludes, type WorktreeIncluded } from "./worktreeInclude";

/** Letters, digits, `.`, `_`, `-`; starts with a letter or digit; up to 48. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$/;
export const WORKTREES_FOLDER = join(".claude", "worktrees");
const BASE_KEY = "arcadiaBase";

export interface WorktreeInfo {
  /** The worktree's root. */
  path: string;
  branch: string;
  /** The branch (or commit) it was made from. */
  base: string;
  /** The main checkout (the repository's own work tree). */
  repo: string;
  /** At creation: the ignored files `.worktreeinclude` named, copied in from the main checkout (./worktreeInclude.ts). */
  included?: WorktreeIncluded;
}

/** What is wrong with a worktree name, in words; undefined when it is fine. */
export function worktreeNameProblem(name: string): string | undefined {
  if (name === "") return "Give the worktree a name, e.g. fix-login";
  if (!NAME.test(name) || name.includes("..") || name.endsWith(".lock") || name.endsWith("."))
    return "Use letters, digits, '.', '_' and '-' (up to 48, starting with a letter or digit), e.g. fix-login";
  return undefined;
}

/** The root of the repository `folder` is in (its main work tree when `folder` is in a linked worktree), or undefined. */
export async function repositoryRoot(folder: string): Promise<string | undefined> {
  const common = await runGit(folder, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  if (common.code !== 0) return undefined;
  const top = await runGit(resolve(common.stdout.trim(), ".."), ["rev-parse", "--show-toplevel"]);
  return top.code === 0 ? top.stdout.trim() : undefined;
}

/**
 * Creates `.claude/worktrees/<name>` on a new branch `worktree-<name>` from what `repo` has checked
 * out; `from` (a commit id): from that commit instead — a race's members all start from one.
 */
export async function createWorktree(repo: string, name: string, from?: { base: string; commit: string }): Promise<WorktreeInfo> {
  const problem = worktreeNameProblem(name);
  if (problem) throw new Error(problem);
  const path = join(repo, WORKTREES_FOLDER, name);
  const branch = `worktree-${name}`;
  if ((await runGit(repo, ["rev-parse", "--verify", "-q", `refs/heads/${branch}`])).code === 0)
    throw new Error(`A branch ${branch} already exists: choose another name`);
  const base = from?.base ?? ((await runGit(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim() || (await git(repo, ["rev-parse", "HEAD"])).trim());
  if (from && (!isPlainRef(from.base) || !/^[0-9a-f]{7,64}$/.test(from.commit))) throw new Error(`not a branch and commit: ${from.base} ${from.commit}`);
  await git(repo, ["worktree", "add", "-b", branch, path, from?.commit ?? "HEAD"]);
  await git(repo, ["config", `branch.${branch}.${BASE_KEY}`, base]);
  const included = await copyWorktreeIncludes(repo, path);
  return { path, branch, base, repo, ...(included.copied.length > 0 || included.failed.length > 0 ? { included } : {}) };
}

/**
 * A worktree whose creation a closing window may have cut (its `.git` is there, nothing after it is
 * sure): its base recorded and the `.worktreeinclude` files copied, where they are not yet. What
 * is there already is kept.
 */
export async function completeWorktree(repo: string, path: string, base: string): Promise<void> {
  const branch = (await git(path, ["symbolic-ref", "--short", "HEAD"])).trim();
  const recorded = await runGit(path, ["config", "--get", `branch.${branch}.${BASE_KEY}`]);
  if (recorded.code !== 0 && isPlainRef(base)) await git(repo, ["config", `branch.${branch}.${BASE_KEY}`, base]);
  await copyWorktreeIncludes(repo, path);
}

/** The worktree `cwd` is in, when it is a linked worktree of a repository; undefined otherwise. */
export async function worktreeOf(cwd: string): Promise<WorktreeInfo | undefined> {
  const dirs = await runGit(cwd, ["rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel"]);
  if (dirs.code !== 0) return undefined;
  const [gitDir, commonDir, path] = dirs.stdout.trim().split("\n");
  if (!gitDir || !commonDir || !path || gitDir === commonDir) return undefined;
  const branch = (await runGit(cwd, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim();
  const repo = await repositoryRoot(cwd);
  if (!branch || !repo) return undefined;
  const recorded = (await runGit(cwd, ["config", "--get", `branch.${branch}.${BASE_KEY}`])).stdout.trim();
  // The repository's config is not ours alone: a recorded base that could read as an option or a
  // range is not used (git gets it as an argument of merge-base, merge-tree, log).
  const base = (isPlainRef(recorded) && recorded) || (await runGit(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim() || "HEAD";
  return { path, branch, base, repo };
}

/** A branch name or commit id that git cannot take for an option or a range. */
export function isPlainRef(ref: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(ref) && !ref.includes("..");
}

/** Whether git already ignores the worktrees folder in `repo`. */
export async function worktreesIgnored(repo: string): Promise<boolean> {
  return (await runGit(repo, ["check-ignore", "-q", join(WORKTREES_FOLDER, "x")])).code === 0;
}

/** Adds `/.claude/worktrees/` to the repository's .gitignore (created if missing). */
export async function ignoreWorktrees(repo: string): Promise<void> {
  const file = join(repo, ".gitignore");
  const current = await readFile(file, "utf8").catch(() => "");
  await appendFile(file, `${current === "" || current.endsWith("\n") ? "" : "\n"}/.claude/worktrees/\n`);
}

export interface ListedWorktree {
  path: string;
  /** Short name, e.g. "worktree-fix"; undefined when detached. */
  branch: string | undefined;
  /** Locked (e.g. by a running `claude --worktree` session): removing it would need force. */
  locked: boolean;
}

/** The linked worktrees of `repo` under `.claude/worktrees/` (the agents' ones), from `git worktree list`. */
export async function agentWorktrees(repo: string): Promise<ListedWorktree[]> {
  const output = await git(repo, ["worktree", "list", "--porcelain", "-z"]);
  const folder = join(repo, WORKTREES_FOLDER);
  const out: ListedWorktree[] = [];
  let current: ListedWorktree | undefined;
  for (const field of output.split("\0")) {
    if (field.startsWith("worktree ")) {
      current = { path: field.slice("worktree ".length), branch: undefined, locked: false };
      if (current.path.startsWith(folder + sep)) out.push(current);
    } else if (current && field.startsWith("branch refs/heads/")) current.branch = field.slice("branch refs/heads/".length);
    else if (current && (field === "locked" || field.startsWith("locked "))) current.locked = true;
  }
  return out;
}

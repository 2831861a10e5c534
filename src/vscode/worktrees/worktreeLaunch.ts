/**
 * "Open Claude Code in New Worktree…": the name asked for (a free one suggested), the worktree
 * made with git (core/git/worktreeCreate.ts), and, once per repository, the offer to ignore
 * `.claude/worktrees/` so the main checkout does not list the worktrees as untracked files.
 * Not a git repository → a message saying why the action is unavailable there.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../../agents/ports";
import {
  createWorktree,
  ignoreWorktrees,
  repositoryRoot,
  WORKTREE_INCLUDE_FILE,
  WORKTREES_FOLDER,
  type WorktreeInfo,
  worktreeNameProblem,
  worktreesIgnored,
} from "../../core/git";
import { errorMessage } from "../../core/util";
import { vscode } from "../api";

const IGNORE_OFFERED = "arcadia.worktreesIgnoreOffered";

/** `agent-<n>`, or the next free number when that folder exists. */
function suggestedName(repo: string, n: number): string {
  for (let i = n; ; i++) if (!existsSync(join(repo, WORKTREES_FOLDER, `agent-${i}`))) return `agent-${i}`;
}

/** `given`: the name a command's caller chose (checked already); otherwise the user is asked, a free one suggested. */
export async function prepareWorktree(folder: string, state: vscode.Memento, agentNumber: number, log: Log, given?: string): Promise<WorktreeInfo | undefined> {
  const repo = await repositoryRoot(folder);
  if (!repo) {
    void vscode.window.showWarningMessage(
      `Open Claude Code in New Worktree needs a git repository: ${folder} is not in one. Run "git init" there (and commit once), or use Open Claude Code.`,
    );
    return undefined;
  }
  if (given !== undefined && existsSync(join(repo, WORKTREES_FOLDER, given))) {
    void vscode.window.showErrorMessage(`Open Claude Code in New Worktree: a worktree named ${given} exists in ${repo}; choose another name.`);
    return undefined;
  }
  const name =
    given ??
    (await vscode.window.showInputBox({
      title: "Open Claude Code in New Worktree",
      prompt: `The agent works in ${join(WORKTREES_FOLDER, "<name>")} on its own branch worktree-<name>, made from what ${repo} has checked out.`,
      value: suggestedName(repo, agentNumber),
      validateInput: (value) =>
        worktreeNameProblem(value.trim()) ??
        (existsSync(join(repo, WORKTREES_FOLDER, value.trim())) ? "A worktree of that name exists: choose another" : undefined),
    }));
  if (name === undefined) return undefined;
  let tree: WorktreeInfo;
  try {
    tree = await createWorktree(repo, name.trim());
  } catch (err) {
    void vscode.window.showErrorMessage(`Could not make the worktree: ${errorMessage(err)}`);
    return undefined;
  }
  log.info(`worktree ${tree.path} on ${tree.branch}, from ${tree.base}${includedWords(tree)}`);
  for (const { path, reason } of tree.included?.failed ?? []) log.warn(`${WORKTREE_INCLUDE_FILE}: could not copy ${path} into ${tree.path}: ${reason}`);
  // Not awaited: a notification may stay unanswered; the agent starts meanwhile.
  void offerToIgnore(repo, state).catch((err) => log.warn(`.gitignore offer: ${errorMessage(err)}`));
  return tree;
}

/** "; 3 ignored files copied in (.worktreeinclude)", or nothing. */
export function includedWords(tree: WorktreeInfo): string {
  const n = tree.included?.copied.length ?? 0;
  return n === 0 ? "" : `; ${n} ignored file${n === 1 ? "" : "s"} copied in (${WORKTREE_INCLUDE_FILE})`;
}

/** Once per repository: add `/.claude/worktrees/` to its .gitignore? (Not when git ignores the folder already.) */
export async function offerToIgnore(repo: string, state: vscode.Memento): Promise<void> {
  const offered = state.get<string[]>(IGNORE_OFFERED, []);
  if (offered.includes(repo) || (await worktreesIgnored(repo))) return;
  await state.update(IGNORE_OFFERED, [...offered, repo]);
  const add = "Add to .gitignore";
  const choice = await vscode.window.showInformationMessage(
    `Add /.claude/worktrees/ to ${join(repo, ".gitignore")}? Otherwise the main checkout lists the agents' worktrees as untracked files.`,
    add,
    "Not now",
  );
  if (choice === add) await ignoreWorktrees(repo);
}

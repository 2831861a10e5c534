/**
 * A worktree agent's card actions, as palette commands too: Review changes (VS Code's multi-file
 * diff editor against the base), Merge into <base>… (predicted first, confirmed, nothing touched
 * when blocked) and Remove worktree… (says what would be lost and asks; the branch goes only when
 * merged). Merge and remove wait until the agent is not working: its files must hold still.
 */
import { basename, dirname, join, sep } from "node:path";
import { combinedDisposable } from "../../core/util";
import { atClaudePrompt } from "../../agents/launch/agentReadiness";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { CardReader } from "../../agents/cards/cardStore";
import type { Log } from "../../agents/ports";
import type { SessionCards } from "../../agents/sessions/sessionCards";
import type { WorktreeCards } from "../../agents/worktrees/worktreeCards";
import {
  agentWorktrees,
  changeStats,
  fileAtMergeBase,
  fileAtRef,
  lossOf,
  mergeWorktree,
  planMerge,
  predictionUnavailable,
  removalCheck,
  type RemovalOutcome,
  removeWorktree,
  repositoryRoot,
  type WorktreeInfo,
  worktreeOf,
} from "../../core/git";
import { firstPrompt, transcriptPath } from "../../core/transcript";
import { countOf, errorMessage, visibleText } from "../../core/util";
import { vscode } from "../api";
import { harmlessFirst } from "../harmlessFirst";
import { type BaseSide, reviewSides } from "./reviewSides";

export const WORKTREE_COMMANDS = { review: "arcadia.reviewWorktreeChanges", merge: "arcadia.mergeWorktree", remove: "arcadia.removeWorktree" } as const;
export const CLEAN_UP_COMMAND = "arcadia.cleanUpWorktrees";

/** Files as they are at a commit, for the diff editor's left side (empty when the file is not there, or no ref: a deleted file's right side). */
export const BASE_SCHEME = "arcadia-base";

export interface Deps {
  manager: Pick<AgentManager, "agentIds" | "close" | "agentInfo">;
  /** The cards: names and statuses as the user sees them. */
  agents: CardReader;
  cards: WorktreeCards;
  edits: SessionCards;
  log: Log;
  /** A Review opened on these files (absolute): comments on them go to this agent. */
  reviewOpened?(agentId: string, files: string[]): void;
}

export function registerWorktreeCommands(deps: Deps): vscode.Disposable {
  const changed = (baseSidesChanged = new vscode.EventEmitter<vscode.Uri>());
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: async (uri) => {
      const { cwd, ref, path, follow } = JSON.parse(uri.query) as Record<string, unknown>;
      return follow !== undefined ? fileAtMergeBase(cwd, follow, path) : fileAtRef(cwd, ref, path);
    },
  };
  return combinedDisposable(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, provider),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.review, (id?: string) =>
      id && !deps.cards.info(id)
        ? reviewSessionEdits(deps, id).catch((err) => void vscode.window.showErrorMessage(`Review: ${errorMessage(err)}`))
        : withAgent(deps, id, (agent, info) => review(deps, agent, info)),
    ),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.merge, (id?: string) => withAgent(deps, id, (agent, info) => merge(deps, agent, info))),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.remove, (id?: string) => withAgent(deps, id, (agent, info) => remove(deps, agent, info))),
    vscode.commands.registerCommand(CLEAN_UP_COMMAND, () =>
      cleanUp(deps).catch((err) => void vscode.window.showErrorMessage(`Clean up worktrees: ${errorMessage(err)}`)),
    ),
  );
}

/** The base sides of open Reviews read again (a merge moved their base): VS Code asks the provider anew. Made with the commands. */
let baseSidesChanged: vscode.EventEmitter<vscode.Uri> | undefined;

/** Every open Review's base side of `worktree` is read again: after a merge, its diff shows what is left (nothing). */
function refreshReviews(worktree: string): void {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme !== BASE_SCHEME) continue;
    const cwd = (() => {
      try {
        return (JSON.parse(doc.uri.query) as { cwd?: unknown }).cwd;
      } catch {
        return undefined;
      }
    })();
    if (cwd === worktree) baseSidesChanged?.fire(doc.uri);
  }
}

/** Worktrees whose agent Remove… is closing: no "it stays" offer for those. */
const beingRemoved = new Set<string>();

/** The worktree at `path` goes with its agent (a race's removal): its card's closing offers nothing. */
export function closingForRemoval(path: string): void {
  beingRemoved.add(path);
}

/** Remove…'s question: exactly what removing loses, or that nothing is lost (and the branch goes). */
export function removalQuestion(info: WorktreeInfo, loss: string, closesTerminal: boolean): { question: string; go: string } {
  const go = loss ? "Remove and lose it" : "Remove";
  const terminal = closesTerminal ? " Its terminal closes." : "";
  const closes = closesTerminal ? " and its terminal closes" : "";
  const question = loss
    ? `Removing ${info.path} loses ${loss}.${terminal} Remove it anyway?`
    : `Remove the worktree ${info.path}? Everything in it is merged into ${info.base}; its branch ${info.branch} is deleted${closes}.`;
  return { question, go };
}

/** A worktree agent was closed: its worktree stays; say where, and offer to remove it (asking as Remove does). */
export function offerRemovalOfLeftWorktree(deps: Deps, info: WorktreeInfo, name: string | undefined): void {
  if (beingRemoved.delete(info.path)) return;
  const remove = "Remove…";
  void vscode.window.showInformationMessage(`${name ?? "The agent"}'s worktree stays at ${info.path} (branch ${info.branch}).`, remove).then(async (choice) => {
    if (choice === remove) await removeLeft(deps, info).catch((err) => void vscode.window.showErrorMessage(`Remove worktree: ${errorMessage(err)}`));
  });
}

/** The agents' worktrees of the workspace's repositories that no card works in: chosen one is removed, asking first. */
async function cleanUp(deps: Deps): Promise<void> {
  const repos = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const repo = await repositoryRoot(folder.uri.fsPath);
    if (repo) repos.add(repo);
  }
  const inUse = deps.manager
    .agentIds()
    .map((id) => deps.manager.agentInfo(id)?.cwd)
    .filter((cwd): cwd is string => cwd !== undefined);
  const left: { info: WorktreeInfo; loss: string; locked: boolean }[] = [];
  for (const repo of repos) {
    for (const listed of await agentWorktrees(repo)) {
      if (inUse.some((cwd) => cwd === listed.path || cwd.startsWith(listed.path + sep))) continue;
      const info = await worktreeOf(listed.path);
      if (!info) continue;
      left.push({ info, loss: lossOf(await removalCheck(info.path, info.base)), locked: listed.locked });
    }
  }
  if (left.length === 0) {
    void vscode.window.showInformationMessage("Every agent worktree of this workspace has its agent: nothing to clean up.");
    return;
  }
  const chosen = await vscode.window.showQuickPick(
    left.map((l) => ({
      label: basename(l.info.path),
      description: l.info.branch,
      detail:
        (l.locked ? "locked (a claude --worktree session may still run there) · " : "") +
        (l.loss ? `removing loses ${l.loss}` : `merged into ${l.info.base}: nothing would be lost`),
      entry: l,
    })),
    { title: "Worktrees no agent works in", placeHolder: "Choose one to remove (you are asked first)" },
  );
  if (chosen) await removeLeft(deps, chosen.entry.info);
}

async function removeLeft(deps: Deps, info: WorktreeInfo): Promise<void> {
  const loss = lossOf(await removalCheck(info.path, info.base));
  const { question, go } = removalQuestion(info, loss, false);
  if ((await vscode.window.showWarningMessage(question, { modal: true }, ...harmlessFirst("Keep", go)))?.title !== go) return;
  const outcome = await removeWorktree(info.repo, info.path, info.base, loss);
  deps.log.info(`worktree ${info.path}: ${JSON.stringify(outcome)}`);
  tellRemoval(info, outcome);
}

/** What a removal did, told once the same way everywhere (Remove…, Clean Up, a race's removal offer). */
export function tellRemoval(info: WorktreeInfo, outcome: RemovalOutcome): void {
  const branch = outcome.removed && outcome.branchDeleted ? ` and branch ${info.branch}` : `; branch ${info.branch} is kept`;
  if (outcome.removed) void vscode.window.showInformationMessage(`Removed ${info.path}${branch}.`);
  else void vscode.window.showWarningMessage(`Not removed: it would now lose ${outcome.wouldLose}, more than when you were asked. Remove… again to see it.`);
}

export type AgentRef = { id: string; name: string; status: string };

async function withAgent(deps: Deps, id: string | undefined, act: (agent: AgentRef, info: WorktreeInfo) => Promise<unknown>): Promise<void> {
  const candidates = deps.agents.cards().filter((a) => deps.cards.info(a.id));
  const agent = id ? candidates.find((a) => a.id === id) : candidates.length === 1 ? candidates[0] : await pick(candidates);
  const info = agent && deps.cards.info(agent.id);
  if (!agent || !info) {
    if (!id && candidates.length === 0)
      void vscode.window.showInformationMessage('No agent works in a worktree of its own. Start one with "Arcadia: Open Claude Code in New Worktree…".');
    return;
  }
  try {
    await act(agent, info);
  } catch (err) {
    deps.log.warn(`${agent.name}: worktree action failed: ${errorMessage(err)}`);
    void vscode.window.showErrorMessage(`${agent.name}: ${errorMessage(err)}`);
  }
}

async function pick(agents: AgentRef[]): Promise<AgentRef | undefined> {
  const chosen = await vscode.window.showQuickPick(
    agents.map((a) => ({ label: a.name, id: a.id })),
    { title: "Which agent's worktree?" },
  );
  return agents.find((a) => a.id === chosen?.id);
}

const isWorking = (agent: AgentRef) => agent.status !== "waiting" && agent.status !== "exited";

/** The worktree's changes against its base in the multi-file diff editor; with a card, its files take that agent's review comments. */
export async function review(deps: Pick<Deps, "reviewOpened">, agent: { id?: string; name: string }, info: WorktreeInfo): Promise<void> {
  const stats = await changeStats(info.path, info.base);
  if (stats.files.length === 0) {
    void vscode.window.showInformationMessage(`${agent.name} has no changes against ${info.base}.`);
    return;
  }
  const side = (s: BaseSide) => vscode.Uri.from({ scheme: BASE_SCHEME, path: s.path, query: JSON.stringify(s.query) });
  // Left: the file at the base; right: the file in the worktree now (gone: empty).
  const resources = reviewSides(info.path, stats.base, stats.files, info.base).map(({ file, left, right }) => [
    vscode.Uri.file(file),
    side(left),
    "file" in right ? vscode.Uri.file(right.file) : side(right),
  ]);
  // Its right sides (the files now) take review comments for this agent.
  if (agent.id)
    deps.reviewOpened?.(
      agent.id,
      stats.files.filter((f) => f.status !== "deleted").map((f) => join(info.path, f.path)),
    );
  await vscode.commands.executeCommand("vscode.changes", `${agent.name}: ${info.branch} against ${info.base}`, resources);
}

/** An agent in the shared checkout: the files it changed this session, each against HEAD (or empty outside git). */
async function reviewSessionEdits(deps: Deps, agentId: string): Promise<void> {
  const name = deps.agents.card(agentId)?.name ?? "The agent";
  const files = deps.edits.files(agentId);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(`${name} has changed no file in this session.`);
    return;
  }
  const atHead = (file: string) =>
    vscode.Uri.from({ scheme: BASE_SCHEME, path: file, query: JSON.stringify({ cwd: dirname(file), ref: "HEAD", path: `./${basename(file)}` }) });
  const resources = files.map((file) => [vscode.Uri.file(file), atHead(file), vscode.Uri.file(file)]);
  deps.reviewOpened?.(agentId, files);
  await vscode.commands.executeCommand("vscode.changes", `${name}: files changed this session, against HEAD`, resources);
}

/** Merge… (also a race's Pick): true once the branch is merged. `proposed`: the commit message offered (else the first prompt). */
export async function merge(deps: Deps, agent: AgentRef, info: WorktreeInfo, proposed?: string): Promise<boolean> {
  if (isWorking(agent)) {
    void vscode.window.showWarningMessage(`${agent.name} is working: merge once it is idle, so its files hold still.`);
    return false;
  }
  const unavailable = await predictionUnavailable();
  if (unavailable) {
    void vscode.window.showErrorMessage(`Merge is unavailable: ${unavailable}.`);
    return false;
  }
  const request = { repo: info.repo, worktree: info.path, branch: info.branch, base: info.base };
  const plan = await planMerge(request);
  if (!plan.ok) {
    const ask = "Ask the agent to rebase";
    const answer = await vscode.window.showWarningMessage(
      `Cannot merge ${info.branch} into ${info.base}. ${plan.blocked}`,
      { modal: true },
      ...(plan.conflicts ? [ask] : []),
    );
    if (answer === ask && plan.conflicts) await askToRebase(deps, agent, info, plan.conflicts);
    return false;
  }
  if (plan.files.length === 0) {
    void vscode.window.showInformationMessage(`${agent.name} has nothing to merge into ${info.base}.`);
    return false;
  }
  let message = "";
  if (plan.uncommitted) {
    // Proposed from what the agent was asked to do: the session's first prompt.
    const session = deps.manager.agentInfo(agent.id);
    const asked = proposed ?? (session ? await firstPrompt(transcriptPath(session.projectDir, session.sessionId)) : undefined);
    const typed = await vscode.window.showInputBox({
      title: `Commit ${agent.name}'s changes before merging`,
      prompt: `Its uncommitted changes are committed on ${info.branch} with this message.`,
      value: asked ?? `${agent.name}: work from ${info.branch}`,
    });
    if (!typed?.trim()) return false;
    message = typed.trim();
  }
  const go = `Merge into ${info.base}`;
  const confirm = await vscode.window.showInformationMessage(
    `Merge ${info.branch} into ${info.base} in ${info.repo}? ${countOf(plan.files.length, "file")}: ` +
      `${plan.files.slice(0, 8).join(", ")}${plan.files.length > 8 ? ", …" : ""}. Predicted clean.`,
    { modal: true },
    go,
  );
  if (confirm !== go) return false;
  const outcome = await mergeWorktree(request, message);
  await deps.cards.recount(agent.id);
  if (outcome.merged) refreshReviews(info.path);
  if (outcome.merged) void vscode.window.showInformationMessage(`Merged ${info.branch} into ${info.base} (${countOf(outcome.files.length, "file")}).`);
  else void vscode.window.showWarningMessage(`Not merged: ${outcome.blocked}`, { modal: true });
  return outcome.merged;
}

/** Types a request naming the base and the conflicting files at the agent's prompt (it is idle: merge checked). */
export async function askToRebase(deps: Pick<Deps, "manager" | "agents" | "log">, agent: AgentRef, info: WorktreeInfo, conflicts: string[]): Promise<void> {
  const terminal = deps.manager.agentInfo(agent.id)?.terminal;
  // Read now, not from before the merge dialog: a claude that exited meanwhile leaves a shell there.
  if (!terminal?.type || !atClaudePrompt(deps.agents.card(agent.id))) {
    void vscode.window.showWarningMessage(`${agent.name} cannot be asked now: it is not idle at its prompt.`);
    return;
  }
  // File names come from git: shown visibly, so none can carry a keystroke into the prompt.
  const files = conflicts.map((f) => visibleText(f)).join(", ");
  const request =
    `Please rebase your branch ${visibleText(info.branch)} onto ${visibleText(info.base)} and resolve the conflicts in ${files}, ` +
    `keeping both intents; then make sure it builds and the tests pass, and commit. Merging it into ${visibleText(info.base)} as it is would conflict ` +
    `in those files.`;
  terminal.show(false);
  await terminal.type(request);
  deps.log.info(`${agent.name}: asked to rebase onto ${info.base} (${countOf(conflicts.length, "conflicting file")})`);
}

async function remove(deps: Deps, agent: AgentRef, info: WorktreeInfo): Promise<void> {
  if (isWorking(agent)) {
    void vscode.window.showWarningMessage(`${agent.name} is working: remove its worktree once it is idle.`);
    return;
  }
  const loss = lossOf(await removalCheck(info.path, info.base));
  const { question, go } = removalQuestion(info, loss, true);
  if ((await vscode.window.showWarningMessage(question, { modal: true }, ...harmlessFirst("Keep", go)))?.title !== go) return;
  // The terminal first: nothing should be running in a folder that is about to go.
  beingRemoved.add(info.path);
  deps.manager.close(agent.id);
  tellRemoval(info, await removeWorktree(info.repo, info.path, info.base, loss));
}

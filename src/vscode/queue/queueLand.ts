/**
 * "Land Finished Work…": the queue's done tasks merged into its base in the landing plan's order
 * (agents/queue/queueLanding.ts), after one click on a dialog that lists that order and where it
 * would stop; then one merge at a time with `arcadia.compare.check` after each (a terminal per run,
 * as a race's Run checks), stopping at the first conflict or failing check with "Ask the agent to
 * rebase" or "Skip" (Skip plans again without it and asks again: nothing merges without a click).
 * Each landed task's worktree is then offered for removal with Remove…'s own words, Keep first.
 */
import { vscode } from "../api";
import { type LandingPorts, landInOrder, planLanding, type TaskLanding, toLand } from "../../agents/queue/queueLanding";
import type { QueueBook } from "../../agents/queue/queueBook";
import { lossOf, mergeWorktree, predictionUnavailable, removalCheck, removeWorktree, type WorktreeInfo } from "../../core/git";
import type { CheckRunner } from "../../core/races";
import { taskLabel } from "../../core/queue";
import { countOf, errorMessage } from "../../core/util";
import { harmlessFirst } from "../harmlessFirst";
import { checkCommand } from "../checks/checkCommand";
import { askToRebase, closingForRemoval, type Deps as WorktreeDeps, removalQuestion, tellRemoval } from "../worktrees/worktreeCommands";

const TITLE = "Land Finished Work";
const REBASE = "Ask the agent to rebase";
const SKIP = "Skip";

export interface LandDeps {
  book: QueueBook;
  worktrees: WorktreeDeps;
  checks: CheckRunner;
}

export async function landFinishedWork(deps: LandDeps): Promise<void> {
  const queue = deps.book.queue;
  if (!queue) return void vscode.window.showInformationMessage(`${TITLE}: there is no queue (Arcadia: Queue Tasks…).`);
  const unavailable = await predictionUnavailable();
  if (unavailable) return void vscode.window.showErrorMessage(`${TITLE} is unavailable: ${unavailable}.`);
  const skipped = new Set<string>();
  const landedAll: TaskLanding[] = [];
  for (;;) {
    const tasks = (await toLand(queue)).filter((t) => !skipped.has(t.id));
    if (tasks.length === 0) {
      if (landedAll.length === 0) void vscode.window.showInformationMessage(`${TITLE}: no done task of the queue is left to land in ${queue.base}.`);
      break;
    }
    const plan = await planLanding(queue, tasks);
    const byId = (id: string) => tasks.find((t) => t.id === id)!;
    let stop: { id: string; why: string; files: string[] } | null = plan.stop && {
      id: plan.stop.id,
      why: "It would conflict with the base once the tasks before it are merged.",
      files: plan.stop.conflicts,
    };
    if (plan.order.length > 0) {
      const check = checkCommand();
      const checkWords = check ? `, then your check (${check}) runs` : " (no check: arcadia.compare.check is not set)";
      const order = plan.order.map((id, i) => `${i + 1}. ${id} ${taskLabel(byId(id).task)}`).join("\n");
      const after = stop ? `\nThen ${stop.id} ${taskLabel(byId(stop.id).task)} would conflict in ${stop.files.join(", ")}: it waits.` : "";
      const go = `Land ${countOf(plan.order.length, "task")}`;
      const asked = await vscode.window.showInformationMessage(
        `Land ${countOf(plan.order.length, "finished task")} into ${queue.base}, one at a time, in this order?`,
        {
          modal: true,
          detail: `${order}${after}\n\nEach is merged as Merge… does${checkWords}; it stops at the first conflict or failing check.`,
        },
        go,
      );
      if (asked !== go) break;
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: TITLE }, (progress) =>
        landInOrder(
          queue,
          tasks,
          plan.order,
          ports(deps, check, (m) => progress.report({ message: m })),
        ),
      );
      landedAll.push(...result.landed.map(byId));
      if (result.stop) stop = { id: result.stop.id, why: result.stop.why, files: result.stop.kind === "conflict" ? result.stop.files : [] };
      else if (!stop) break;
    }
    if (!stop) break;
    const landing = byId(stop.id);
    const files = stop.files.length > 0 ? ` Conflicting: ${stop.files.join(", ")}.` : "";
    const answer = await vscode.window.showWarningMessage(
      `${stop.id} ${taskLabel(landing.task)} was not landed. ${stop.why}${files}`,
      { modal: true },
      REBASE,
      SKIP,
    );
    if (answer === REBASE) await rebase(deps, landing, stop.files);
    if (answer !== SKIP) break;
    skipped.add(stop.id);
  }
  for (const landed of landedAll) await offerRemoval(deps, landed);
}

function ports(deps: LandDeps, check: string | null, report: (m: string) => void): LandingPorts {
  return {
    merge: (request, message) => mergeWorktree(request, message),
    check: async (repo) => {
      if (!check) return undefined;
      try {
        const run = await deps.checks.start({ command: check, cwd: repo, label: "landing" });
        const { exitCode } = await run.ended;
        return { ok: exitCode === 0, output: `exit code ${exitCode ?? "none"}: its output is in the check's terminal.` };
      } catch (err) {
        return { ok: false, output: `the check could not start: ${errorMessage(err)}` };
      }
    },
    progress: report,
  };
}

async function rebase(deps: LandDeps, landing: TaskLanding, files: string[]): Promise<void> {
  const agentId = landing.task.start?.agentId;
  const card = agentId ? deps.worktrees.agents.card(agentId) : undefined;
  if (!card) return void vscode.window.showWarningMessage(`${landing.id}'s agent is gone: open Claude Code in ${landing.request.worktree} to rebase it.`);
  const info: WorktreeInfo = { path: landing.request.worktree, branch: landing.request.branch, base: landing.request.base, repo: landing.request.repo };
  await askToRebase(deps.worktrees, { id: card.id, name: card.name, status: card.status }, info, files);
}

async function offerRemoval(deps: LandDeps, landing: TaskLanding): Promise<void> {
  const info: WorktreeInfo = { path: landing.request.worktree, branch: landing.request.branch, base: landing.request.base, repo: landing.request.repo };
  const agentId = landing.task.start?.agentId;
  const card = agentId ? deps.worktrees.agents.card(agentId) : undefined;
  const loss = lossOf(await removalCheck(info.path, info.base));
  const { question, go } = removalQuestion(info, loss, card !== undefined);
  const answer = await vscode.window.showWarningMessage(`${landing.id} landed in ${info.base}. ${question}`, { modal: true }, ...harmlessFirst("Keep", go));
  if (answer?.title !== go) return;
  if (card) {
    closingForRemoval(info.path);
    deps.worktrees.manager.close(card.id);
  }
  tellRemoval(info, await removeWorktree(info.repo, info.path, info.base, loss));
}

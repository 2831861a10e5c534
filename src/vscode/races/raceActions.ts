/**
 * What a compare tab's buttons do for one race: Review a member's changes (the worktree Review),
 * diff two members against each other (the multi-file diff editor between their snapshots, through
 * the `arcadia-base:` provider), ask a member's agent a follow-up (typed at its prompt like the
 * rebase request: only while it is idle, exactly the text shown), show its terminal or its check's
 * output, Run checks (the user's `arcadia.compare.check`, only on this click), Pick (raceSettle.ts)
 * and Again on… (the queue's "Queue Again on Another Model…" for this member).
 */
import { join } from "node:path";
import { vscode } from "../api";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { CheckRuns } from "../../core/races";
import { diffBetween } from "../../core/git";
import { memberPath, type Race, type RaceMember, recordCheck } from "../../core/races";
import { typedTextProblem } from "../../core/launch";
import { visibleText } from "../../core/util";
import type { CompareAction } from "./compareTabs";
import { checkCommand } from "../checks/checkCommand";
import type { CheckTerminals } from "../checks/checkTerminals";
import { cardOf, memberInfo, pick, type SettleDeps } from "./raceSettle";
import { atClaudePrompt } from "../../agents/launch/agentReadiness";
import { BASE_SCHEME, review } from "../worktrees/worktreeCommands";
import { QUEUE_COMMANDS } from "../queue/queueTaskCommands";

export interface RaceActionDeps extends SettleDeps {
  manager: Pick<AgentManager, "close" | "focus" | "agentInfo">;
  /** A member whose agent did not start, started again in its worktree (RaceRetries, as its line's Retry). */
  retry(agentId: string): Promise<void>;
  checks: CheckRuns;
  checkTerminals: CheckTerminals;
}

export async function raceAction(deps: RaceActionDeps, message: CompareAction): Promise<void> {
  const race = deps.book.get(message.raceId);
  if (!race) return;
  if (message.type === "runChecks") return runChecks(deps, race);
  if (message.type === "compareDiff") return diffTwo(deps, race, message.left, message.right);
  const member = race.members.find((m) => m.name === message.member);
  if (!member) return;
  const card = cardOf(deps, race, member);
  switch (message.action) {
    case "review":
      return review(deps.worktrees, { id: card?.id, name: member.name }, memberInfo(race, member));
    case "pick":
      return pick(deps, race, member.name);
    case "focus":
      if (card) deps.manager.focus(card.id);
      return;
    case "checkOutput":
      if (deps.checkTerminals.show(member.name)) return;
      void vscode.window.showInformationMessage(`No check has run in ${member.name}'s worktree in this window: Run checks runs it again.`);
      return;
    case "followUp":
      return followUp(deps, race, member);
    case "retry":
      return member.notStarted !== undefined && member.agentId ? deps.retry(member.agentId) : undefined;
    case "again":
      return void (await vscode.commands.executeCommand(QUEUE_COMMANDS.again, { raceId: race.id, member: member.name }));
  }
}

/** `right` against `left`: each file that differs between their snapshots, left's version beside right's. */
async function diffTwo(deps: RaceActionDeps, race: Race, leftName: string, rightName: string): Promise<void> {
  const left = race.members.find((m) => m.name === leftName);
  const right = race.members.find((m) => m.name === rightName);
  if (!left || !right || left === right) return;
  await deps.figures.readNow(race);
  const [a, b] = [deps.figures.of(race, left)?.changes, deps.figures.of(race, right)?.changes];
  if (!a || !b) {
    void vscode.window.showWarningMessage(`Cannot compare ${left.name} with ${right.name}: ${!a ? left.name : right.name}'s worktree is gone.`);
    return;
  }
  const files = await diffBetween(race.repo, a.snapshot, b.snapshot);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(`${left.name} and ${right.name} made the same changes.`);
    return;
  }
  const at = (ref: string, path: string) => vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${path}`, query: JSON.stringify({ cwd: race.repo, ref, path }) });
  const resources = files.map((f) => {
    const file = vscode.Uri.file(join(memberPath(race, right), f.path));
    return [file, at(a.snapshot, f.from ?? f.path), at(f.status === "deleted" ? "" : b.snapshot, f.path)];
  });
  await vscode.commands.executeCommand("vscode.changes", `${left.name} ↔ ${right.name}`, resources);
}

async function followUp(deps: RaceActionDeps, race: Race, member: RaceMember): Promise<void> {
  const card = cardOf(deps, race, member);
  const terminal = card ? deps.manager.agentInfo(card.id)?.terminal : undefined;
  if (!card || !terminal?.type) {
    void vscode.window.showWarningMessage(`${member.name} has no agent to ask: its card was closed. Start one in its worktree to go on.`);
    return;
  }
  const text = await vscode.window.showInputBox({
    title: `Ask ${card.name} (${member.name}) a follow-up`,
    prompt: "Typed at its prompt, as you write it here.",
    validateInput: (v) => typedTextProblem(v.trim()),
  });
  if (text === undefined) return;
  // Asked again after the box: it may have started working meanwhile.
  const now = deps.agents.card(card.id);
  if (!atClaudePrompt(now)) {
    void vscode.window.showWarningMessage(`${card.name} cannot be asked now: it is not idle at its prompt.`);
    return;
  }
  terminal.show(false);
  await terminal.type(visibleText(text.trim()));
  deps.log.info(`race ${race.task}: ${member.name} asked a follow-up`);
}

async function runChecks(deps: RaceActionDeps, race: Race): Promise<void> {
  const command = checkCommand();
  if (!command) {
    const open = "Open Settings";
    const why = "Set the check command first (arcadia.compare.check, a user setting), e.g. npm test: it runs in each worktree on Run checks.";
    const choice = await vscode.window.showInformationMessage(why, open);
    if (choice === open) await vscode.commands.executeCommand("workbench.action.openSettings", "arcadia.compare.check");
    return;
  }
  await deps.figures.readNow(race);
  const runs = race.members
    .filter((m) => deps.figures.of(race, m)?.worktree !== false)
    .map(async (member) => {
      const tree = deps.figures.of(race, member)?.changes?.tree ?? null;
      const outcome = await deps.checks.run({ key: `${race.id}/${member.name}`, command, cwd: memberPath(race, member), label: member.name, tree });
      if (!outcome) return;
      if (!outcome.ok) {
        void vscode.window.showErrorMessage(`The check could not start in ${member.name}'s worktree: ${outcome.error}`);
        return;
      }
      deps.log.info(`race ${race.task}: check in ${member.name} exited ${outcome.result.exitCode ?? "without a code"} after ${outcome.result.durationMs} ms`);
      await deps.book.update(race.id, (r) => recordCheck(r, member.name, outcome.result));
    });
  await Promise.all(runs);
}

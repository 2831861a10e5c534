/**
 * The compare tab's view of a race, one column per member, made from what is known now: the
 * race (core/races/race.ts), each member's card if it has one, its figures (raceFigures.ts), and
 * its check — running, or its last result, stale when the worktree's files changed since. Pure.
 */
import { memberBranch, phaseOf, type CheckResult, type Race, type RaceMember } from "../../core/races";
import type { AgentStatusView, CompareCheckView, CompareMemberView, RaceCompareView } from "../../shared/protocol";
import type { RaceBudgetView } from "../../shared/raceViews";
import type { FolderFigures } from "../../core/races";
import { tokenCount } from "../../core/usage";
import type { MemberFigures } from "./raceFigures";

export interface CompareInputs {
  /** The member's card, when it has one (bound or reconnecting). */
  agent(member: RaceMember): { id: string; name: string; status: AgentStatusView } | undefined;
  figures(member: RaceMember): MemberFigures | undefined;
  /** When its check started, while it runs. */
  checkRunningSince(member: RaceMember): number | undefined;
  checkCommand: string | null;
  /** What the race's agents spent against its cap (the budget book). */
  budget: RaceBudgetView;
}

export function compareView(race: Race, inputs: CompareInputs): RaceCompareView {
  return {
    id: race.id,
    task: race.task,
    prompt: race.prompt,
    base: race.base,
    startedAt: race.startedAt,
    picked: race.picked,
    checkCommand: inputs.checkCommand,
    budget: inputs.budget,
    members: race.members.map((m) => column(race, m, inputs)),
  };
}

function column(race: Race, member: RaceMember, inputs: CompareInputs): CompareMemberView {
  const agent = inputs.agent(member);
  const figures = inputs.figures(member);
  // Until git has been asked, the worktree is taken to be there (it was made with the race).
  const facts = { worktree: figures?.worktree ?? true, branch: figures?.branch ?? true, agent: agent !== undefined };
  const changes = figures?.changes;
  const sessions = figures?.sessions;
  return {
    name: member.name,
    number: member.number,
    branch: memberBranch(member),
    model: member.model,
    agentId: agent?.id ?? null,
    agentName: agent?.name ?? null,
    phase: phaseOf(race, member, facts),
    status: agent?.status ?? null,
    sessions: sessions ? sessionsView(sessions) : null,
    changes: changes && facts.worktree ? { files: changes.files.map((f) => ({ ...f })), added: changes.added, removed: changes.removed } : null,
    merge: changes && facts.worktree ? changes.merge : null,
    check: checkView(race.checks[member.name], inputs.checkRunningSince(member), changes?.tree),
    problem: figures?.problem ?? null,
    notStarted: member.notStarted ?? null,
  };
}

function sessionsView(s: FolderFigures): NonNullable<CompareMemberView["sessions"]> {
  return { turns: s.turns, activeMs: s.activeMs, tokens: tokenCount(s.tokens), costUsd: s.costUsd, unpricedModels: s.unpricedModels };
}

function checkView(result: CheckResult | undefined, runningSince: number | undefined, tree: string | undefined): CompareCheckView {
  if (runningSince !== undefined) return { state: "running", since: runningSince };
  if (!result) return { state: "notRun" };
  const stale = result.tree !== null && tree !== undefined && result.tree !== tree;
  return { state: result.exitCode === 0 ? "passed" : "failed", exitCode: result.exitCode, durationMs: result.durationMs, finishedAt: result.finishedAt, stale };
}

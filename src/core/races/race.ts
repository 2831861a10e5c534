/**
 * A race: one task given to several worktree agents at once, to keep the best result. Pure: what
 * a race is, what is kept of it across reloads and restarts (its task, its members, the pick and
 * the last check results), and what follows from it together with what git and the cards say
 * now — whether a member's worktree and branch are still there, whether its card still is. Those
 * facts are never stored: a worktree removed by hand reads as removed, a card gone as no agent.
 */
import { join } from "node:path";
import { WORKTREES_FOLDER, worktreeNameProblem } from "../git";

export const MIN_MEMBERS = 2;
export const MAX_MEMBERS = 5;

export interface RaceMember {
  /** Its worktree's name, `<task>-<number>`. */
  name: string;
  /** 1-based. */
  number: number;
  /** `--model` it was started with; null: the default. */
  model: string | null;
  /** The card started in it (ids are never reused: a card gone is simply not found). */
  agentId: string | null;
  /** Saved before the first key of the task is typed at its agent: never typed again once true. */
  asked: boolean;
  /** Why its agent did not start (its claude not ready in time, exited…): its card says so and offers Retry. Gone once one starts. */
  notStarted?: string;
}

/** The last run of the check command in a member's worktree. */
export interface CheckResult {
  exitCode: number | null;
  durationMs: number;
  finishedAt: number;
  /** The tree (git's id of the files) of the worktree it ran on: a worktree whose files changed since makes it stale. */
  tree: string | null;
}

export interface Race {
  id: string;
  /** Short name; members are `<task>-1…N`. */
  task: string;
  /** What each agent was asked, as typed. */
  prompt: string;
  /** The main checkout. */
  repo: string;
  /** The branch every member was made from (and is merged into). */
  base: string;
  startedAt: number;
  members: RaceMember[];
  /** The base's commit every member's worktree is made from (null in records from before it was kept). */
  commit: string | null;
  /** The member chosen and merged; null until then. */
  picked: string | null;
  checks: Record<string, CheckResult>;
}

/** What git and the cards say of a member now. */
export interface MemberFacts {
  worktree: boolean;
  branch: boolean;
  /** Its card is here (bound, or reconnecting after a reload). */
  agent: boolean;
}

/**
 * `agent`: its card works in it. `noAgent`: the worktree is there, no card (closed, or gone with a
 * restart). `branchKept`: the worktree was removed, its branch (unmerged work) kept. `removed`:
 * worktree and branch gone. A picked member is `picked` whatever else holds.
 */
export type MemberPhase = "agent" | "noAgent" | "branchKept" | "removed" | "picked";

export const memberPath = (race: Pick<Race, "repo">, member: Pick<RaceMember, "name">) => join(race.repo, WORKTREES_FOLDER, member.name);
export const memberBranch = (member: Pick<RaceMember, "name">) => `worktree-${member.name}`;

export interface NewRace {
  id: string;
  task: string;
  prompt: string;
  repo: string;
  base: string;
  now: number;
  /** One entry per member: its `--model`, or null. */
  models: (string | null)[];
  /** The base's commit the members start from (kept, so a reload mid-start can make a missing worktree). */
  commit?: string;
}

export function startRace(request: NewRace): Race {
  const count = request.models.length;
  if (count < MIN_MEMBERS || count > MAX_MEMBERS) throw new Error(`a race has ${MIN_MEMBERS} to ${MAX_MEMBERS} agents, not ${count}`);
  const members = request.models.map((model, i) => ({ name: `${request.task}-${i + 1}`, number: i + 1, model, agentId: null, asked: false }));
  for (const m of members) {
    const problem = worktreeNameProblem(m.name);
    if (problem) throw new Error(`${m.name}: ${problem}`);
  }
  const { id, task, prompt, repo, base, commit } = request;
  return { id, task, prompt, repo, base, commit: commit ?? null, startedAt: request.now, members, picked: null, checks: {} };
}

function withMember(race: Race, name: string, change: (m: RaceMember) => RaceMember): Race {
  if (!race.members.some((m) => m.name === name)) throw new Error(`${name} is not in race ${race.task}`);
  return { ...race, members: race.members.map((m) => (m.name === name ? change(m) : m)) };
}

/** Its card was started (again, after a Retry: what kept the last one from starting is gone). */
export function memberStarted(race: Race, name: string, agentId: string): Race {
  return withMember(race, name, ({ notStarted: _gone, ...m }) => ({ ...m, agentId }));
}

/** Its agent never became ready to be asked: `why`, in words, for its card. */
export function memberNotStarted(race: Race, name: string, why: string): Race {
  return withMember(race, name, (m) => ({ ...m, notStarted: why }));
}

/** Why the member cannot be started again (Retry), or undefined when it can: only one whose task was never typed. */
export function retryProblem(race: Race, name: string): string | undefined {
  const member = race.members.find((m) => m.name === name);
  if (!member) return `${name} is not in race ${race.task}`;
  if (member.asked) return `${name} was asked its task already: look at its terminal`;
  if (member.notStarted === undefined) return `${name} is not one that did not start`;
  return undefined;
}

/** Its task is about to be typed at its agent (saved first: a reload after this never types it again). */
export function memberAsked(race: Race, name: string): Race {
  return withMember(race, name, (m) => ({ ...m, asked: true }));
}

export function recordCheck(race: Race, name: string, result: CheckResult): Race {
  withMember(race, name, (m) => m);
  return { ...race, checks: { ...race.checks, [name]: result } };
}

export function phaseOf(race: Race, member: RaceMember, facts: MemberFacts): MemberPhase {
  if (race.picked === member.name) return "picked";
  if (facts.worktree) return facts.agent && member.agentId ? "agent" : "noAgent";
  return facts.branch ? "branchKept" : "removed";
}

/** Why `name` cannot be picked now, or undefined when it can (a member whose worktree is gone has nothing to merge). */
export function pickProblem(race: Race, name: string, facts: MemberFacts): string | undefined {
  const member = race.members.find((m) => m.name === name);
  if (!member) return `${name} is not in race ${race.task}`;
  if (race.picked) return `${race.picked} was picked already`;
  if (!facts.worktree) return `the worktree of ${name} is gone`;
  return undefined;
}

/** The user picked `name` and its work was merged: the others are then offered for removal. */
export function picked(race: Race, name: string): Race {
  withMember(race, name, (m) => m);
  if (race.picked && race.picked !== name) throw new Error(`${race.picked} was picked already`);
  return { ...race, picked: name };
}

/** The members to offer for removal once one is picked: the others whose worktree is still there. */
export function removalOffers(race: Race, facts: (member: RaceMember) => MemberFacts): RaceMember[] {
  if (!race.picked) return [];
  return race.members.filter((m) => m.name !== race.picked && facts(m).worktree);
}

/** The race and member a card belongs to. */
export function raceOfAgent(races: readonly Race[], agentId: string): { race: Race; member: RaceMember } | undefined {
  for (const race of races) {
    const member = race.members.find((m) => m.agentId === agentId);
    if (member) return { race, member };
  }
  return undefined;
}

/** The race a worktree (by name) was made for. */
export function raceOfWorktree(races: readonly Race[], worktreeName: string): Race | undefined {
  return races.find((r) => r.members.some((m) => m.name === worktreeName));
}

/** A race is over when nothing of it is left to decide: picked, and no other member's worktree left. */
export function isSettled(race: Race, facts: (member: RaceMember) => MemberFacts): boolean {
  return race.picked !== null && removalOffers(race, facts).length === 0;
}

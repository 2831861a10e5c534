/**
 * Fan out: one task started on several worktree agents at once. Every member's worktree is made
 * from the same commit of the base (one after another: git locks its config while it records
 * each base), every agent launched, and the same task typed at each one's prompt as soon as its
 * `claude` is up and idle — as a person types it: text, then Enter apart (TerminalHandle.type),
 * exactly the text the user saw (visibleText: nothing hidden can ride in). A claude that has just
 * come up can miss the Enter (seen with five starting at once on two cores: the task stayed in
 * its input box, unsent), so the task counts as asked once that agent starts working; until then
 * Enter alone is pressed again, a few times at most (on a taken task's empty prompt, Enter does
 * nothing). The race is saved before the first agent starts, and each card as it comes, so a
 * reload mid-start keeps it.
 */
import { memberAsked, memberNotStarted, memberPath, type MemberResume, type Race, type RaceMember, memberStarted } from "../../core/races";
import { errorMessage, visibleText } from "../../core/util";
import type { RaceBook } from "./raceBook";
import { type CutTypingSent, NOT_TAKEN, notReadyReason, type Readiness, sendCutTyping, type TaskTyping, typeTask } from "../launch/agentReadiness";

export type { Readiness } from "../launch/agentReadiness";

export interface RaceStartDeps {
  book: RaceBook;
  /** Makes the member's worktree (`.claude/worktrees/<name>` on `worktree-<name>`) from `commit`. */
  createWorktree(repo: string, name: string, from: { base: string; commit: string }): Promise<unknown>;
  /** Starts `claude` (with `--model` when given) in `cwd`: the new card's id. */
  launch(cwd: string, model: string | null): Promise<string>;
  /** Resolves once the card's claude is up and idle at its prompt (its status file says so), or why not. */
  whenReady(agentId: string): Promise<Readiness>;
  /** Types `text` at the card's prompt, then Enter; "" presses Enter alone. */
  type(agentId: string, text: string): Promise<void>;
  /** Resolves true once the card's agent works on what it was asked (or finished a turn), false if not within `timeoutMs`. */
  whenTaken(agentId: string, timeoutMs: number): Promise<boolean>;
  log(message: string): void;
  now(): number;
}

export interface MemberStart {
  name: string;
  agentId: string | null;
  /** ms after the start: its card launched, its claude ready, the task typed (undefined: did not happen). */
  launchedMs?: number;
  readyMs?: number;
  typedMs?: number;
  /** When its agent was seen working on the task. */
  takenMs?: number;
  /** Enter pressed again because the first was not taken. */
  enterAgain?: number;
  problem?: string;
}

export interface RaceStartReport {
  members: MemberStart[];
  /** ms from the start until the last task was typed (undefined unless every member got it). */
  allTypedMs?: number;
  /** ms from the moment the last claude was ready until every task was typed. */
  afterLastReadyMs?: number;
  /** ms from the start until every agent was seen working on the task. */
  allTakenMs?: number;
}

export async function startRace(deps: RaceStartDeps, race: Race, commit: string): Promise<RaceStartReport> {
  const started = deps.now();
  const since = () => Math.round(deps.now() - started);
  await deps.book.add(race);
  const members: MemberStart[] = race.members.map((m) => ({ name: m.name, agentId: null }));
  for (const member of members) {
    try {
      await deps.createWorktree(race.repo, member.name, { base: race.base, commit });
    } catch (err) {
      member.problem = `its worktree could not be made: ${errorMessage(err)}`;
    }
  }
  const typed = await Promise.all(race.members.map((m, i) => (members[i]!.problem ? members[i]! : startMember(deps, race, m, "launch", since, members[i]))));
  for (const m of typed) if (m.problem) deps.log(`race ${race.task}: ${m.name}: ${m.problem}`);
  const everyone = typed.every((m) => m.typedMs !== undefined);
  const lastTyped = Math.max(...typed.map((m) => m.typedMs ?? 0));
  const lastReady = Math.max(...typed.map((m) => m.readyMs ?? 0));
  const allTaken = typed.every((m) => m.takenMs !== undefined) ? { allTakenMs: Math.max(...typed.map((m) => m.takenMs ?? 0)) } : {};
  return { members: typed, ...(everyone ? { allTypedMs: lastTyped, afterLastReadyMs: lastTyped - lastReady } : {}), ...allTaken };
}

/**
 * One member from `from` on: its worktree made ("create"), its agent launched and saved ("launch"),
 * then, once its claude is ready, its task typed ("type": "asked" saved first) or Enter alone
 * ("enterAgain": its words may sit in the box; an agent seen working already is left alone).
 */
export async function startMember(
  deps: RaceStartDeps,
  race: Race,
  m: RaceMember,
  from: MemberResume,
  since: () => number,
  report: MemberStart = { name: m.name, agentId: m.agentId },
): Promise<MemberStart> {
  try {
    if (from === "create") await deps.createWorktree(race.repo, m.name, { base: race.base, commit: race.commit! });
    if (from === "create" || from === "launch") {
      report.agentId = await deps.launch(memberPath(race, m), m.model);
      report.launchedMs = since();
      const launched = report.agentId;
      await deps.book.update(race.id, (r) => memberStarted(r, m.name, launched));
    }
    const agentId = report.agentId!;
    const typing = { type: (t: string) => deps.type(agentId, t), whenTaken: (ms: number) => deps.whenTaken(agentId, ms) };
    const sent =
      from === "enterAgain"
        ? await sendCutTyping(typing, () => deps.whenReady(agentId), timesOf(report, since))
        : await typeFirst(deps, race, m, typing, report, since);
    if ("notReady" in sent) {
      // Said on its card, with Retry (raceRetry.ts): a member never asked is not left "Starting…" in silence.
      await deps.book.update(race.id, (r) => memberNotStarted(r, m.name, notReadyReason(sent.notReady)));
      return { ...report, problem: notReadyReason(sent.notReady) };
    }
    const { taken, enterAgain } = sent;
    if (enterAgain > 0) report.enterAgain = enterAgain;
    if (taken) report.takenMs = since();
    else report.problem = NOT_TAKEN;
  } catch (err) {
    report.problem = errorMessage(err);
  }
  return report;
}

/** The member's report times its claude's readiness and its typing. */
function timesOf(report: MemberStart, since: () => number): { onReady: () => void; onTyped: () => void } {
  return { onReady: () => (report.readyMs = since()), onTyped: () => (report.typedMs = since()) };
}

/** Its task typed the first time, once its claude is ready: "asked" is saved before the first key, so a reload never types it twice. */
async function typeFirst(deps: RaceStartDeps, race: Race, m: RaceMember, typing: TaskTyping, report: MemberStart, since: () => number): Promise<CutTypingSent> {
  const readiness = await deps.whenReady(report.agentId!);
  if (readiness !== "ready") return { notReady: readiness };
  const times = timesOf(report, since);
  times.onReady();
  await deps.book.update(race.id, (r) => memberAsked(r, m.name));
  return typeTask(typing, visibleText(race.prompt), times.onTyped);
}

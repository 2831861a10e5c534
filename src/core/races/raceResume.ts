/**
 * A race whose start a window reload cut (the user reloads, VS Code restarts an extension host):
 * each member picks up where its last saved fact left it, and none is typed twice:
 *   not asked, no worktree nor branch (the race's commit known) → make it, launch, type;
 *   not asked, its worktree, no agent here                       → launch, type;
 *   not asked, its agent here                                    → type once it is ready;
 *   asked, its agent here, no prompt known to be taken           → Enter alone once it is ready
 *                                                                  (its words may sit in the box);
 *   anything else (asked and working, gone, picked)              → as it is.
 * Only a start that was under way: a race started more than RESUME_WINDOW_MS ago is left as it is
 * (a window opened the next day starts no agent, and never presses Enter in a box the user may
 * have typed in since). Pure: what is there now comes in as facts, read by the caller.
 */
import type { Race, RaceMember } from "./race";

/** A start takes seconds; a reload that cut one comes right after. */
export const RESUME_WINDOW_MS = 10 * 60_000;

export type MemberResume = "create" | "launch" | "type" | "enterAgain";

/** What is there now for a member. */
export interface MemberNow {
  worktree: boolean;
  branch: boolean;
  /** Its card is here (bound, or reconnecting after a reload). */
  agent: boolean;
  /** Its agent's session took a prompt (its transcript exists); undefined when that cannot be told. */
  prompted?: boolean;
}

/** Whether a race's start may be picked up at all (not picked, started within the window): its facts are read only then. */
export function raceMayResume(race: Race, at: number): boolean {
  return !race.picked && at - race.startedAt <= RESUME_WINDOW_MS;
}

export function raceResumes(race: Race, now: (member: RaceMember) => MemberNow, at: number): { member: string; resume: MemberResume }[] {
  if (!raceMayResume(race, at)) return [];
  const out: { member: string; resume: MemberResume }[] = [];
  for (const member of race.members) {
    const facts = now(member);
    const agentHere = member.agentId !== null && facts.agent;
    let resume: MemberResume | undefined;
    if (!member.asked) {
      if (agentHere) resume = "type";
      else if (facts.worktree) resume = "launch";
      else if (!facts.branch && race.commit) resume = "create";
    } else if (agentHere && facts.prompted !== true) resume = "enterAgain";
    if (resume) out.push({ member: member.name, resume });
  }
  return out;
}

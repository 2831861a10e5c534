/**
 * After a window reload: every race whose start the reload cut goes on from its last saved fact
 * (core/races raceResumes): a member's missing worktree made from the race's commit, its agent
 * launched, its task typed once, or Enter alone where its words may already sit in the box. A
 * task is never typed twice, and a race started long ago is left as it is.
 */
import { memberBranch, memberPath, type MemberNow, raceResumes } from "../../core/races";
import { join } from "node:path";
import { startMember, type RaceStartDeps } from "./raceStart";

export interface RaceResumeDeps extends RaceStartDeps {
  exists(path: string): boolean;
  branchExists(repo: string, branch: string): Promise<boolean>;
  /** Its card is here (bound, or reconnecting after the reload). */
  hasAgent(agentId: string): boolean;
  /** Its session took a prompt; undefined when that cannot be told. */
  tookPrompt(agentId: string): boolean | undefined;
  /** ms since the epoch (a race's startedAt is). */
  wallClock(): number;
}

/** Resolves once every resumed member was typed at, given Enter, or said why not (in the log). */
export async function resumeRaces(deps: RaceResumeDeps): Promise<void> {
  const started = deps.now();
  const since = () => Math.round(deps.now() - started);
  const work: Promise<unknown>[] = [];
  for (const race of deps.book.all()) {
    const facts = new Map<string, MemberNow>();
    for (const m of race.members)
      facts.set(m.name, {
        worktree: deps.exists(join(memberPath(race, m), ".git")),
        branch: await deps.branchExists(race.repo, memberBranch(m)),
        agent: m.agentId !== null && deps.hasAgent(m.agentId),
        prompted: m.agentId === null ? undefined : deps.tookPrompt(m.agentId),
      });
    for (const { member, resume } of raceResumes(race, (m) => facts.get(m.name)!, deps.wallClock())) {
      deps.log(`race ${race.task}: ${member}: after the reload, ${resume}`);
      const m = race.members.find((x) => x.name === member)!;
      work.push(startMember(deps, race, m, resume, since).then((report) => report.problem && deps.log(`race ${race.task}: ${member}: ${report.problem}`)));
    }
  }
  await Promise.all(work);
}

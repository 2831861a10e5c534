/**
 * After a window reload: every race whose start the reload cut goes on from its last saved fact
 * (core/races raceResumes): a member's missing worktree made from the race's commit, its agent
 * launched, its task typed once, or Enter alone where its words may already sit in the box. A
 * task is never typed twice, and a race started long ago is left as it is.
 */
import { memberBranch, memberPath, type MemberNow, type MemberResume, memberStarted, raceMayResume, raceResumes, type RaceMember } from "../../core/races";
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
  /** An agent here that works in `folder` (its launch done, the reload before the race saved it). */
  agentIn(folder: string): string | undefined;
  /**
   * Whether a saved agent is bound again after the reload, false once its terminal did not come
   * back in the grace (AgentManager.whenBack); omitted, it is waited for as long as readiness allows.
   */
  whenBack?(agentId: string): Promise<boolean>;
}

/** Resolves once every resumed member was typed at, given Enter, or said why not (in the log). */
export async function resumeRaces(deps: RaceResumeDeps): Promise<void> {
  const started = deps.now();
  const since = () => Math.round(deps.now() - started);
  const work: Promise<unknown>[] = [];
  const at = deps.wallClock();
  // Old or picked races are passed over before anything is read: no git call per member at each activation.
  for (const race of deps.book.all().filter((r) => raceMayResume(r, at))) {
    const facts = new Map<string, MemberNow>();
    for (const m of race.members)
      facts.set(m.name, {
        worktree: deps.exists(join(memberPath(race, m), ".git")),
        branch: await deps.branchExists(race.repo, memberBranch(m)),
        agent: m.agentId !== null && deps.hasAgent(m.agentId),
        prompted: m.agentId === null ? undefined : deps.tookPrompt(m.agentId),
      });
    for (const { member, resume } of raceResumes(race, (m) => facts.get(m.name)!, at)) {
      deps.log(`race ${race.task}: ${member}: after the reload, ${resume}`);
      let m = race.members.find((x) => x.name === member)!;
      let from = resume;
      // Launched just before the reload, not saved yet: that agent is the member's, not a second one.
      const orphan = resume === "launch" ? deps.agentIn(memberPath(race, m)) : undefined;
      if (orphan && !deps.book.all().some((r) => r.members.some((x) => x.agentId === orphan))) {
        await deps.book.update(race.id, (r) => memberStarted(r, member, orphan));
        m = { ...m, agentId: orphan };
        from = "type";
      }
      work.push(
        goOn(deps, race.task, m, from).then((go) =>
          startMember(deps, race, go.member, go.from, since).then((report) => report.problem && deps.log(`race ${race.task}: ${member}: ${report.problem}`)),
        ),
      );
    }
  }
  await Promise.all(work);
}

/**
 * A member whose task was never typed waits for its agent only while that agent may come back: a
 * terminal made moments before the reload is in no layout VS Code saved, and is never revived (its
 * card would wait, "Reconnecting…", and its task two minutes for nothing). Then it gets an agent of
 * its own, as if never launched: no key reached the other, so its task is still typed once.
 */
async function goOn(deps: RaceResumeDeps, task: string, m: RaceMember, from: MemberResume): Promise<{ member: RaceMember; from: MemberResume }> {
  if (from !== "type" || m.agentId === null || !deps.whenBack || (await deps.whenBack(m.agentId))) return { member: m, from };
  deps.log(`race ${task}: ${m.name}: its agent's terminal did not come back after the reload; launching it again`);
  return { member: { ...m, agentId: null }, from: "launch" };
}

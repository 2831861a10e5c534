/**
 * Retry, on the card of a race member whose agent did not start (its claude never became ready:
 * raceStart.ts saves why): the old agent is closed (its terminal never had a claude to ask), a new
 * one is launched in the same worktree and its task typed once it is ready, as at the start. Only
 * a member whose task was never typed can be retried, so a task is never typed twice; a second
 * click while one is on its way starts nothing.
 */
import { raceOfAgent, retryProblem } from "../../core/races";
import { type MemberStart, type RaceStartDeps, startMember } from "./raceStart";

export interface RaceRetryDeps extends RaceStartDeps {
  /** Closes a card's agent (its terminal). */
  close(agentId: string): void;
}

export class RaceRetries {
  /** Members being started again, by `<race id>/<member>`. */
  private readonly running = new Set<string>();

  constructor(private readonly deps: RaceRetryDeps) {}

  /** Starts the member of card `agentId` again: what became of it (its problem, if it did not start this time either). */
  async retry(agentId: string): Promise<MemberStart & { task: string }> {
    const found = raceOfAgent(this.deps.book.all(), agentId);
    if (!found) throw new Error("this agent is not in a race (any more)");
    const { race, member } = found;
    const problem = retryProblem(race, member.name);
    if (problem) throw new Error(problem);
    const key = `${race.id}/${member.name}`;
    if (this.running.has(key)) throw new Error(`${member.name} is being started again already`);
    this.running.add(key);
    try {
      this.deps.log(`race ${race.task}: ${member.name}: started again (Retry)`);
      this.deps.close(agentId);
      const started = this.deps.now();
      const report = await startMember(this.deps, race, member, "launch", () => Math.round(this.deps.now() - started));
      return { ...report, task: race.task };
    } finally {
      this.running.delete(key);
    }
  }
}

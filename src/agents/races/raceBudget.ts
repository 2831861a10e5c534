/**
 * The races as budget groups (agents/budget/budgetGroups.ts): each race's members share one cap
 * (`arcadia.budget.perRace`, or the one set on the race). A member is its card's agent id, kept in
 * the race after the card is closed, so what a closed member spent still counts for its race.
 * The compare tab says what the race spent of its cap, and whether its agents are paused at it.
 */
import { pausedLine, pauseVerdict } from "../../core/budget";
import { type Race, raceOfAgent } from "../../core/races";
import type { RaceBudgetView } from "../../shared/raceViews";
import type { BudgetBook } from "../budget/budgetBook";
import { type BudgetGroup, type BudgetGroupSource, groupLine } from "../budget/budgetGroups";
import type { RaceBook } from "./raceBook";

/** The budget group of the race with this id. */
export const raceGroupId = (raceId: string): string => `race:${raceId}`;

export function raceGroup(race: Race): BudgetGroup {
  return { id: raceGroupId(race.id), kind: "race", name: race.task, members: race.members.flatMap((m) => (m.agentId ? [m.agentId] : [])) };
}

export function raceBudgetGroups(book: Pick<RaceBook, "all" | "onDidChange">): BudgetGroupSource {
  return {
    groupOf: (agentId) => {
      const found = raceOfAgent(book.all(), agentId);
      return found && raceGroup(found.race);
    },
    groups: () => book.all().map(raceGroup),
    onDidChange: (listener) => book.onDidChange(listener),
  };
}

/** The compare tab's budget line: the race's spend against its cap, or its pause in the card's words. */
export function raceBudgetView(book: Pick<BudgetBook, "groupInput">, race: Race): RaceBudgetView {
  const input = book.groupInput(raceGroup(race))!;
  const verdict = pauseVerdict({ agent: undefined, agentCapUsd: null, group: input, day: undefined, dayCapUsd: null });
  return verdict.paused ? { spent: pausedLine(verdict), paused: true } : { spent: groupLine(input), paused: false };
}

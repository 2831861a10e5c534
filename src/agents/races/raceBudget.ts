/**
 * The races as budget groups (agents/budget/budgetGroups.ts): each race's members share one cap
 * (`arcadia.budget.perRace`, or the one set on the race). A member is its card's agent id, kept in
 * the race after the card is closed, so what a closed member spent still counts for its race.
 */
import { type Race, raceOfAgent } from "../../core/races";
import type { BudgetGroup, BudgetGroupSource } from "../budget/budgetGroups";
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

/**
 * What a race's budget keeps across a reload, read back as untrusted (workspace state can be
 * edited by hand or written by another version): a cap or a spend that is not sane is dropped, and
 * nothing throws. And the race's sum as it is kept: a session never counts for less than the most
 * it was seen to spend, and past the sessions kept one by one the oldest left ones are folded.
 */
import { describe, expect, it } from "vitest";
import { BudgetGroups } from "../../../src/agents/budget/budgetGroups";
import { readBudgetState } from "../../../src/agents/budget/budgetState";

const race = { id: "race:r1", kind: "race" as const, name: "fix", members: ["m1", "m2"] };
const groupsOf = (saved?: Record<string, Record<string, number>>) => {
  const groups = new BudgetGroups(saved);
  groups.follow({ groupOf: (id) => (race.members.includes(id) ? race : undefined), groups: () => [race], onDidChange: () => ({ dispose() {} }) });
  return groups;
};
const total = (groups: BudgetGroups) => groups.input(race, 1, () => undefined).spend;

describe("a race's budget kept across a reload", () => {
  it("keeps sane caps and spends, drops the rest, never throws", () => {
    const state = readBudgetState({
      raises: {},
      groupCaps: { "race:r1": 2, "race:typo": 1e9, "race:neg": -1, "race:text": "5" },
      groups: { "race:r1": { s1: 0.3, s2: -1, s3: "0.5", s4: Number.NaN, s5: 0.22 }, "race:list": [1, 2], "race:null": null },
    });
    expect(state.groupCaps).toEqual({ "race:r1": 2 });
    expect(state.groups).toEqual({ "race:r1": { s1: 0.3, s5: 0.22 } });
    for (const hostile of [null, "x", 42, [], { groups: "x", groupCaps: [1] }, { groups: { "race:r1": "x" } }]) {
      expect(() => readBudgetState(hostile)).not.toThrow();
    }
    expect(readBudgetState({ groups: "x", groupCaps: 3 }).groups).toBeUndefined();
  });

  it("a session never counts for less than the most it was seen to spend; saved spends count from the start", () => {
    const groups = groupsOf({ "race:r1": { old: 0.2 } });
    expect(total(groups)).toEqual({ usd: 0.2, complete: true });
    groups.note("m1", "s1", { usd: 0.3, complete: true });
    groups.note("m1", "s1", { usd: 0.1, complete: true }); // rewritten lower
    groups.note("outsider", "s9", { usd: 5, complete: true }); // not in the race
    expect(total(groups)?.usd).toBeCloseTo(0.5, 9);
    expect(groups.takeChanges()).toEqual({ "race:r1": { old: 0.2, s1: 0.3 } });
    expect(groups.takeChanges()).toBeUndefined();
  });

  it("past the sessions kept one by one, the oldest a member left is folded into one sum; a member's current one is not", () => {
    const groups = groupsOf();
    groups.note("m2", "m2-live", { usd: 0.5, complete: true });
    for (let i = 0; i < 150; i++) groups.note("m1", `m1-${i}`, { usd: 0.01, complete: true });
    expect(total(groups)?.usd).toBeCloseTo(0.5 + 1.5, 9);
    const saved = groups.takeChanges()!["race:r1"]!;
    expect(Object.keys(saved)).toHaveLength(101);
    expect(saved["m2-live"]).toBe(0.5);
    expect(saved["m1-149"]).toBe(0.01);
    // 101 kept: m2's, the sum, and m1's newest 99; the sum holds m1's 51 oldest.
    expect(saved["(earlier sessions)"]).toBeCloseTo(0.51, 9);
    expect(saved["m1-50"]).toBeUndefined();
    expect(saved["m1-51"]).toBe(0.01);
  });
});

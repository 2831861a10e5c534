/**
 * A race's budget, from its members' real transcripts: the race crossing its cap pauses every
 * member (with the words the card and the model read) and no other agent; Raise… on a member's
 * card raises the race's cap and lets them all go on; a closed member's spend stays in the race's
 * sum; an agent's own cap and its race's both apply, the lower one said; the race's cap set from
 * the race applies at once, and a reload keeps a paused race paused.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BudgetState } from "../../../src/agents/budget/budgetState";
import { raceBudgetView, raceGroup, raceGroupId } from "../../../src/agents/races/raceBudget";
import { follows } from "../../support/sessionReads";
import { raceWorld, type RaceWorld, reply } from "../../support/raceBudgetWorld";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const worlds: RaceWorld[] = [];
afterEach(() => worlds.splice(0).forEach((w) => w.dispose()));

const RACE_REASON = "Arcadia: the agents of this race (fix-title) reached their $0.50 budget. Stop and wait; the user can raise it.";

/** Members m1 ($0.30) and m2 ($0.22) of the race, and a1 ($0.60) outside it. */
async function spentRace(settings: Parameters<typeof raceWorld>[1]) {
  const dir = tempDir();
  const paths = { m1: join(dir, "m1.jsonl"), m2: join(dir, "m2.jsonl"), a1: join(dir, "a1.jsonl") };
  writeFileSync(paths.m1, reply({ output: 20_000 })); // $0.30
  writeFileSync(paths.m2, reply({ input: 73_334 })); // $0.220002
  writeFileSync(paths.a1, reply({ output: 40_000 })); // $0.60
  const w = await raceWorld(["m1", "m2"], settings);
  worlds.push(w);
  await w.read("m1", paths.m1, 0.3);
  await w.read("a1", paths.a1, 0.6);
  return { w, paths };
}

describe("a race's budget", () => {
  it("crossing its cap pauses every member and no other agent; Raise… on a card raises the race's cap for all", async () => {
    const { w, paths } = await spentRace({ perRace: 0.5 });
    expect(w.book.verdict("m1")).toEqual({ paused: false });
    expect(w.book.budgetView("m1")).toMatchObject({ paused: null, group: "race fix-title: $0.30 of $0.50" });
    const told: string[][] = [];
    w.book.onDidChange((ids) => told.push(ids));
    await w.read("m2", paths.m2, 0.220002);
    // m2's spending is told to m1's card too: the race's sum pauses it.
    expect(told.some((ids) => ids.includes("m1") && ids.includes("m2"))).toBe(true);
    for (const id of ["m1", "m2"]) {
      expect(w.book.budgetView(id)?.paused).toBe("Paused at the race's budget — $0.52 of $0.50");
      expect(w.book.refusal(id)).toBe(RACE_REASON);
    }
    expect(w.book.typingRefusal("m1", "fix-title-1")).toBe(
      "nothing typed to fix-title-1: Paused at the race's budget — $0.52 of $0.50. Raise… its budget on its card first.",
    );
    expect(w.book.verdict("a1")).toEqual({ paused: false });
    expect(w.book.budgetView("a1")).toBeNull();
    // The compare tab says it too, with Raise…
    expect(raceBudgetView(w.book, w.races.all()[0]!)).toEqual({ spent: "Paused at the race's budget — $0.52 of $0.50", paused: true });

    expect(w.book.capOf("m2")).toEqual({ scope: "group", capUsd: 0.5 });
    expect(w.book.raise("m2", 0.5)).toBe("Raise it above what is spent ($0.52).");
    expect(w.book.raise("m2", 1)).toBeUndefined();
    for (const id of ["m1", "m2"]) expect(w.book.verdict(id)).toEqual({ paused: false });
    expect(w.book.budgetView("m1")?.group).toBe("race fix-title: $0.52 of $1.00");
    expect((w.saved.state as BudgetState).groupCaps).toEqual({ [raceGroupId("r1")]: 1 });
    expect(raceBudgetView(w.book, w.races.all()[0]!)).toEqual({ spent: "race fix-title: $0.52 of $1.00", paused: false });
    // A reload keeps the raise.
    const reloaded = await raceWorld(["m1", "m2"], { perRace: 0.5 }, structuredClone(w.saved));
    worlds.push(reloaded);
    await reloaded.read("m1", paths.m1, 0.3);
    expect(reloaded.book.verdict("m1")).toEqual({ paused: false });
    expect(reloaded.book.budgetView("m1")?.group).toBe("race fix-title: $0.52 of $1.00");
  });

  it("a member closed keeps its spend in the race's sum, after a reload too", async () => {
    const { w, paths } = await spentRace({ perRace: 0.5 });
    w.close("m1");
    await w.read("m2", paths.m2, 0.220002);
    expect(w.book.verdict("m2")).toMatchObject({ paused: true, scope: "group", spentUsd: expect.closeTo(0.520002, 6) });
    // A reload: the races and the budget read back; m1's transcript is never read again, m2's not yet.
    const reloaded = await raceWorld(["m1", "m2"], { perRace: 0.5 }, structuredClone(w.saved));
    worlds.push(reloaded);
    follows(reloaded.cards, "m2", paths.m2);
    expect(reloaded.book.budgetView("m2")?.paused).toBe("Paused at the race's budget — $0.52 of $0.50");
  });

  it("an agent's own cap and its race's both apply: the lower one holds it and is the one said", async () => {
    const { w, paths } = await spentRace({ perAgent: 0.25, perRace: 0.5 });
    // m1 spent $0.30: its own $0.25 holds it while the race ($0.30) is under $0.50; m2 runs.
    expect(w.book.verdict("m1")).toMatchObject({ paused: true, scope: "agent", capUsd: 0.25 });
    await w.read("m2", paths.m2, 0.220002);
    expect(w.book.verdict("m2")).toMatchObject({ paused: true, scope: "group", capUsd: 0.5 });
    // Both reached for m1: the lower (its own) is said, and raising it leaves the race's holding it.
    expect(w.book.budgetView("m1")?.paused).toBe("Paused at budget — $0.30 of $0.25");
    expect(w.book.raise("m1", 2)).toBeUndefined();
    expect(w.book.budgetView("m1")?.paused).toBe("Paused at the race's budget — $0.52 of $0.50");
  });

  it("Cap this race at… applies at once, below what it spent pauses it now; a setting changed applies at once; 0 pauses from the start", async () => {
    const { w } = await spentRace({});
    // Nothing capped: one row says both spends (the card would otherwise say "no cap" on two rows).
    expect(w.book.budgetView("m1")).toMatchObject({ spent: "$0.30 · race fix-title: $0.30 · no caps", group: null, inGroup: true });
    expect(w.book.capAgent("m1", 5)).toBeUndefined();
    expect(w.book.budgetView("m1")).toMatchObject({ spent: "$0.30 of $5.00", group: "race fix-title: $0.30 (no cap on this race)", inGroup: true });
    expect(w.book.capGroup(raceGroupId("r1"), 0.2)).toBeUndefined();
    expect(w.book.budgetView("m1")?.paused).toBe("Paused at the race's budget — $0.30 of $0.20");
    expect(w.book.capGroup(raceGroupId("r1"), -1)).toBe("A cap is a dollar amount, 0 or more.");
    expect(w.book.capGroup(raceGroupId("gone"), 1)).toBe("That race is gone.");
    expect(w.book.groupInput(raceGroup(w.races.all()[0]!))).toMatchObject({
      capUsd: 0.2,
      spend: { usd: 0.3 },
    });

    const fresh = await raceWorld(["n1", "n2"], { perRace: 1 });
    worlds.push(fresh);
    follows(fresh.cards, "n1", join(tempDir(), "n1.jsonl"));
    expect(fresh.book.verdict("n1")).toEqual({ paused: false });
    fresh.set({ perRace: 0 });
    fresh.book.settingsChanged();
    expect(fresh.book.budgetView("n1")?.paused).toBe("Paused at the race's budget — $0.00 of $0.00");
    fresh.set({ perRace: "lots" });
    expect(fresh.book.settingsChanged()).toEqual([expect.stringContaining('arcadia.budget.perRace is "lots", which is not a number')]);
    expect(fresh.book.verdict("n1")).toEqual({ paused: false });
  });
});

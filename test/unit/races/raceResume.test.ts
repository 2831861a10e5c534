/**
 * The rules a race's members go on by after a reload cut its start (core/races raceResume.ts), and
 * what a saved record says of them: a record from before "asked" was kept reads as asked (never
 * typed again), and a commit that is not a commit id is not kept (it would go to git).
 */
import { describe, expect, it } from "vitest";
import { memberAsked, memberStarted, parseRaces, raceResumes, startRace } from "../../../src/core/races";

const race = () => startRace({ id: "r1", task: "fix", prompt: "Fix it", repo: "/repo", base: "main", now: 1_000, models: [null, null], commit: "c0ffee1" });
const all = { worktree: true, branch: true, agent: true };

describe("a race's start cut by a reload", () => {
  it("types a member never asked once its agent is here, launches one whose agent is gone, makes a missing worktree", () => {
    const launched = memberStarted(race(), "fix-1", "agent-1");
    expect(raceResumes(launched, () => all, 2_000)).toEqual([
      { member: "fix-1", resume: "type" },
      { member: "fix-2", resume: "launch" },
    ]);
    expect(raceResumes(race(), () => ({ worktree: false, branch: false, agent: false }), 2_000)).toEqual([
      { member: "fix-1", resume: "create" },
      { member: "fix-2", resume: "create" },
    ]);
    // A branch without its worktree is the user's work (removed by hand): never made again.
    expect(raceResumes(race(), () => ({ worktree: false, branch: true, agent: false }), 2_000)).toEqual([]);
  });

  it("presses Enter alone for an asked member whose agent took no prompt, and leaves one that did", () => {
    const asked = memberAsked(memberStarted(race(), "fix-1", "agent-1"), "fix-1");
    const only = (prompted: boolean | undefined) =>
      raceResumes(asked, (m) => (m.name === "fix-1" ? { ...all, prompted } : { worktree: false, branch: false, agent: false }), 2_000);
    expect(only(false)).toEqual([
      { member: "fix-1", resume: "enterAgain" },
      { member: "fix-2", resume: "create" },
    ]);
    expect(only(undefined)).toEqual([
      { member: "fix-1", resume: "enterAgain" },
      { member: "fix-2", resume: "create" },
    ]);
    expect(only(true)).toEqual([{ member: "fix-2", resume: "create" }]);
  });

  it("leaves a race started long ago, or one already picked, as it is", () => {
    expect(raceResumes(race(), () => all, 1_000 + 11 * 60_000)).toEqual([]);
    expect(raceResumes({ ...race(), picked: "fix-1" }, () => all, 2_000)).toEqual([]);
  });

  it("reads an old record's members as asked, and keeps only a commit id as the race's commit", () => {
    const saved = JSON.parse(JSON.stringify(race()));
    for (const m of saved.members) delete m.asked;
    saved.commit = "--upload-pack=evil";
    const [back] = parseRaces([saved]);
    expect(back!.members.map((m) => m.asked)).toEqual([true, true]);
    expect(back!.commit).toBeNull();
    expect(parseRaces([race()])[0]!.commit).toBe("c0ffee1");
  });
});

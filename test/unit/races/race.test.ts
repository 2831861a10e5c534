/**
 * The race model: started with its members named `<task>-1…N`, each card recorded as it starts,
 * what each member is when its card goes, when its worktree is removed (branch kept or not) and
 * once picked; which members are offered for removal; and what survives a reload (the records as
 * kept, read back leniently).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  isSettled,
  type MemberFacts,
  memberBranch,
  memberPath,
  memberAsked,
  memberNotStarted,
  memberStarted,
  phaseOf,
  picked,
  pickProblem,
  raceOfAgent,
  raceOfWorktree,
  retryProblem,
  recordCheck,
  removalOffers,
  startRace,
} from "../../../src/core/races/race";
import { parseRaces } from "../../../src/core/races/raceRecords";
import { typedTextProblem } from "../../../src/core/launch/typedText";
import { freeTaskName, taskNameFrom } from "../../../src/core/races/raceNames";

const base = { id: "r1", task: "fix-title", prompt: "Fix the title", repo: "/repo", base: "main", now: 1000 };
const here: MemberFacts = { worktree: true, branch: true, agent: true };

describe("a race", () => {
  it("starts with 2 to 5 members named <task>-1…N, each a worktree on its own branch, with its model", () => {
    const race = startRace({ ...base, models: [null, "opus", "sonnet"] });
    expect(race.members.map((m) => [m.name, m.number, m.model, m.agentId])).toEqual([
      ["fix-title-1", 1, null, null],
      ["fix-title-2", 2, "opus", null],
      ["fix-title-3", 3, "sonnet", null],
    ]);
    expect(memberPath(race, race.members[1]!)).toBe("/repo/.claude/worktrees/fix-title-2");
    expect(memberBranch(race.members[1]!)).toBe("worktree-fix-title-2");
    expect(race.picked).toBeNull();
    expect(() => startRace({ ...base, models: [null] })).toThrow(/2 to 5/);
    expect(() => startRace({ ...base, models: [null, null, null, null, null, null] })).toThrow(/2 to 5/);
    expect(() => startRace({ ...base, task: "../x", models: [null, null] })).toThrow(/letters, digits/);
  });

  it("records each card as it starts; a card that goes leaves its member without an agent, its worktree still there", () => {
    let race = startRace({ ...base, models: [null, null] });
    race = memberStarted(race, "fix-title-1", "agent-a");
    race = memberStarted(race, "fix-title-2", "agent-b");
    expect(raceOfAgent([race], "agent-b")?.member.name).toBe("fix-title-2");
    expect(raceOfAgent([race], "agent-x")).toBeUndefined();
    const [one, two] = race.members as [never, never];
    expect(phaseOf(race, one, here)).toBe("agent");
    // The card closed (or did not come back after a restart): nothing stored changes, the phase follows.
    expect(phaseOf(race, two, { ...here, agent: false })).toBe("noAgent");
    expect(() => memberStarted(race, "fix-title-9", "x")).toThrow(/not in race/);
  });

  it("a removed worktree reads as removed, or as its branch kept when git still has the branch", () => {
    const race = startRace({ ...base, models: [null, null] });
    const member = race.members[0]!;
    expect(phaseOf(race, member, { worktree: false, branch: true, agent: false })).toBe("branchKept");
    expect(phaseOf(race, member, { worktree: false, branch: false, agent: false })).toBe("removed");
    expect(pickProblem(race, member.name, { worktree: false, branch: true, agent: false })).toMatch(/worktree .* is gone/);
  });

  it("is picked once; then the others whose worktree is left are offered for removal, and it is settled when none is left", () => {
    let race = startRace({ ...base, models: [null, null, null] });
    const facts = new Map(race.members.map((m) => [m.name, { ...here }]));
    const of = (m: { name: string }) => facts.get(m.name)!;
    expect(removalOffers(race, of)).toEqual([]);
    expect(pickProblem(race, "fix-title-2", here)).toBeUndefined();
    race = picked(race, "fix-title-2");
    expect(phaseOf(race, race.members[1]!, here)).toBe("picked");
    expect(pickProblem(race, "fix-title-1", here)).toMatch(/fix-title-2 was picked already/);
    expect(() => picked(race, "fix-title-1")).toThrow(/picked already/);
    expect(removalOffers(race, of).map((m) => m.name)).toEqual(["fix-title-1", "fix-title-3"]);
    expect(isSettled(race, of)).toBe(false);
    facts.set("fix-title-1", { worktree: false, branch: false, agent: false });
    expect(removalOffers(race, of).map((m) => m.name)).toEqual(["fix-title-3"]);
    // Kept by the user: still offered the next time, never removed by the model itself.
    facts.set("fix-title-3", { worktree: false, branch: true, agent: false });
    expect(isSettled(race, of)).toBe(true);
  });

  it("survives a reload: the kept records read back as they were, checks and pick included", () => {
    let race = startRace({ ...base, models: [null, "opus"] });
    race = memberStarted(race, "fix-title-1", "agent-a");
    race = recordCheck(race, "fix-title-1", { exitCode: 1, durationMs: 1200, finishedAt: 5000, tree: "abc1234" });
    race = picked(race, "fix-title-2");
    const kept = JSON.parse(JSON.stringify([race]));
    expect(parseRaces(kept)).toEqual([race]);
    expect(raceOfWorktree(parseRaces(kept), "fix-title-2")?.id).toBe("r1");
  });

  it("reads back leniently: what is valid stays, a record that could reach out of the worktrees folder or pass for a git option is dropped", () => {
    const good = startRace({ ...base, models: [null, null] });
    const records = [
      good,
      { ...good, id: "r2", members: [{ name: "../../etc", number: 1 }] },
      { ...good, id: "r3", base: "--output=/tmp/x" },
      { ...good, id: "r4", members: [] },
      "junk",
      { ...good },
      { ...good, id: "r5", picked: "someone-else", checks: { "fix-title-1": { durationMs: "x" }, nobody: { durationMs: 1, finishedAt: 2 } } },
    ];
    const read = parseRaces(records);
    expect(read.map((r) => r.id)).toEqual(["r1", "r5"]);
    expect(read[1]!.picked).toBeNull();
    expect(read[1]!.checks).toEqual({});
    expect(parseRaces({ not: "a list" })).toEqual([]);
  });
});

describe("a race's name", () => {
  it("comes from the task's first words, as a worktree name takes them", () => {
    expect(taskNameFrom("Fix the login redirect!")).toBe("fix-the-login-redirect");
    expect(taskNameFrom("  Ünïcode   naïve café au lait  ")).toBe("unicode-naive-cafe-au");
    expect(taskNameFrom("!!!")).toBe("task");
    expect(taskNameFrom("a".repeat(40) + " b")).toBe("task");
    expect(taskNameFrom("make it supercalifragilisticexpialidocious")).toBe("make-it");
  });

  it("is made unique against the worktrees and branches there are: every member's name must be free", () => {
    const taken = new Set(["fix-2", "fix-b-1"]);
    expect(freeTaskName("fix", 1, (n) => taken.has(n))).toBe("fix");
    expect(freeTaskName("fix", 3, (n) => taken.has(n))).toBe("fix-c");
    expect(freeTaskName("new", 5, (n) => taken.has(n))).toBe("new");
  });
});

describe("what is typed at agents' prompts", () => {
  it("is refused when it would not be typed as it reads: control, bidi and invisible characters, line breaks, runs of blanks", () => {
    expect(typedTextProblem("Fix the title: keep it short")).toBeUndefined();
    expect(typedTextProblem("   ")).toMatch(/Write what to ask/);
    for (const hidden of ["Fix it\u001b[2J", "Fix \u202Eit", "Fix\u200Bit", "Fix\nrm -rf ~", "Fix     it", "Fix\u0015it"]) {
      expect(typedTextProblem(hidden), JSON.stringify(hidden)).toMatch(/would not be typed as you see it/);
    }
  });
});

describe("the check command's setting", () => {
  it("is a user setting only: a workspace's .vscode/settings.json cannot choose what runs", () => {
    type Manifest = { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as Manifest;
    expect(pkg.contributes.configuration.properties["arcadia.compare.check"]?.scope).toBe("application");
  });
});

describe("a member that did not start", () => {
  const race = () => startRace({ id: "r1", task: "fix", prompt: "Fix it", repo: "/repo", base: "main", now: 0, models: [null, null] });

  it("keeps why until it is started again, and only a member never asked may be retried", () => {
    const failed = memberNotStarted(memberStarted(race(), "fix-1", "a1"), "fix-1", "its claude was not ready in time");
    expect(failed.members[0]!.notStarted).toBe("its claude was not ready in time");
    expect(retryProblem(failed, "fix-1")).toBeUndefined();
    expect(retryProblem(failed, "fix-2")).toBe("fix-2 is not one that did not start");
    expect(retryProblem(memberAsked(failed, "fix-1"), "fix-1")).toBe("fix-1 was asked its task already: look at its terminal");
    const again = memberStarted(failed, "fix-1", "a3");
    expect(again.members[0]).toEqual({ name: "fix-1", number: 1, model: null, agentId: "a3", asked: false });
  });

  it("read back from a record: its words bounded and shown as typed (a hand-edited record cannot hide text on the card)", () => {
    const kept = { ...race(), members: race().members.map((m, i) => (i === 0 ? { ...m, notStarted: `bad\u202Eword\u001b[2J ${"x".repeat(500)}` } : m)) };
    const read = parseRaces([JSON.parse(JSON.stringify(kept))])[0]!;
    expect(read.members[0]!.notStarted).toMatch(/^bad\\u202Eword\\u001B\[2J x+$/);
    expect(read.members[0]!.notStarted!.length).toBe(300);
    expect(read.members[1]!.notStarted).toBeUndefined();
  });
});

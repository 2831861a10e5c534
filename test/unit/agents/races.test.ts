/**
 * Races in the window, with fakes for git and the terminals: fan out (every worktree from the same
 * commit, the race saved before any agent starts, each task typed only once that agent's claude is
 * ready, exactly as shown), the race book across a reload (a new book over the same store), each
 * card's race tag, and the compare tab's columns (a card gone, a worktree removed, a stale check).
 */
import { describe, expect, it } from "vitest";
import { compareView } from "../../../src/agents/races/compareView";
import { RaceBook } from "../../../src/agents/races/raceBook";
import { startRace as fanOut } from "../../../src/agents/races/raceStart";
import { fanOutFakes, memoryStore, settle } from "../../support/raceStartFakes";
import type { MemberFigures } from "../../../src/agents/races/raceFigures";
import { memberNotStarted, memberStarted, picked, recordCheck, startRace } from "../../../src/core/races/race";

const newRace = (models: (string | null)[] = [null, null, null]) =>
  startRace({ id: "r1", task: "fix", prompt: "Fix the title", repo: "/repo", base: "main", now: 0, models });

describe("fan out", () => {
  it("makes every worktree from one commit, saves the race first, and types the task at each prompt only once that claude is ready", async () => {
    const store = memoryStore();
    const book = new RaceBook(store);
    const fakes = fanOutFakes(book);
    const done = fanOut(fakes.deps, newRace([null, "opus", null]), "c0ffee1");
    await settle();
    expect(fakes.events).toEqual([
      "worktree fix-1 from main@c0ffee1",
      "worktree fix-2 from main@c0ffee1",
      "worktree fix-3 from main@c0ffee1",
      "launch /repo/.claude/worktrees/fix-1 default -> agent-1 (race saved: true)",
      "launch /repo/.claude/worktrees/fix-2 opus -> agent-2 (race saved: true)",
      "launch /repo/.claude/worktrees/fix-3 default -> agent-3 (race saved: true)",
    ]);
    // Nothing is typed before its claude is up.
    fakes.ready("agent-2");
    await settle();
    expect(fakes.events.filter((e) => e.startsWith("type"))).toEqual(["type agent-2: Fix the title"]);
    fakes.ready("agent-1");
    fakes.ready("agent-3");
    const report = await done;
    expect(fakes.events.filter((e) => e.startsWith("type"))).toHaveLength(3);
    expect(report.members.map((m) => m.agentId)).toEqual(["agent-1", "agent-2", "agent-3"]);
    expect(report.allTypedMs).toBeGreaterThan(0);
    expect(report.afterLastReadyMs).toBeGreaterThan(0);
    expect(book.get("r1")!.members.map((m) => m.agentId)).toEqual(["agent-1", "agent-2", "agent-3"]);
    expect(store.saved[0]![0]!.members.every((m) => m.agentId === null)).toBe(true);
  });

  it("types the task as it reads, and nothing at a claude that exited or a terminal that closed", async () => {
    const book = new RaceBook(memoryStore());
    const fakes = fanOutFakes(book);
    const race = { ...newRace(), prompt: "Fix it\u001b[2J\u202Enow" };
    const done = fanOut(fakes.deps, race, "c0ffee1");
    await settle();
    fakes.ready("agent-1");
    fakes.ready("agent-2", "exited");
    fakes.ready("agent-3", "gone");
    const report = await done;
    expect(fakes.events.filter((e) => e.startsWith("type"))).toEqual(["type agent-1: Fix it\\u001B[2J\\u202Enow"]);
    expect(report.members.map((m) => m.problem)).toEqual([undefined, "its claude exited before it was asked", "its terminal was closed"]);
    expect(report.allTypedMs).toBeUndefined();
  });

  it("presses Enter alone again while the task is not taken (a claude just up can miss it), and says so when it never is", async () => {
    const book = new RaceBook(memoryStore());
    const fakes = fanOutFakes(book);
    fakes.taken.set("agent-1", [false, true]);
    fakes.taken.set("agent-2", [false, false, false]);
    const done = fanOut(fakes.deps, newRace([null, null]), "c0ffee1");
    await settle();
    fakes.ready("agent-1");
    fakes.ready("agent-2");
    const report = await done;
    const of = (id: string) => fakes.events.filter((e) => e.endsWith(id) || e.includes(`${id}:`));
    expect(of("agent-1")).toEqual(["type agent-1: Fix the title", "taken? agent-1", "enter agent-1", "taken? agent-1"]);
    expect(of("agent-2").filter((e) => e.startsWith("enter"))).toHaveLength(2);
    expect(report.members.map((m) => [m.enterAgain, m.takenMs !== undefined, m.problem])).toEqual([
      [1, true, undefined],
      [2, false, expect.stringMatching(/did not start on the task/)],
    ]);
    expect(report.allTypedMs).toBeDefined();
  });

  it("starts no agent in a member whose worktree could not be made, and says why", async () => {
    const book = new RaceBook(memoryStore());
    const fakes = fanOutFakes(book);
    fakes.deps.createWorktree = async (_repo, name) => {
      if (name === "fix-2") throw new Error("A branch worktree-fix-2 already exists");
    };
    const done = fanOut(fakes.deps, newRace(), "c0ffee1");
    await settle();
    fakes.ready("agent-1");
    fakes.ready("agent-2");
    const report = await done;
    expect(report.members.map((m) => m.agentId)).toEqual(["agent-1", null, "agent-2"]);
    expect(report.members[1]!.problem).toMatch(/could not be made: A branch worktree-fix-2 already exists/);
  });
});

describe("the race book", () => {
  it("keeps races across a reload: a new book over the same store has them, cards' tags included", async () => {
    const store = memoryStore();
    const book = new RaceBook(store);
    const tagged: string[][] = [];
    book.onDidChange((ids) => tagged.push(ids));
    await book.add(newRace());
    await book.update("r1", (r) => memberStarted(r, "fix-2", "agent-b"));
    expect(tagged).toEqual([["agent-b"]]);
    expect(book.race("agent-b")).toEqual({ raceId: "r1", task: "fix", member: 2, of: 3, picked: false, notStarted: null });
    await book.update("r1", (r) => picked(r, "fix-2"));
    const reloaded = new RaceBook(store);
    expect(reloaded.all()).toEqual(book.all());
    expect(reloaded.race("agent-b")).toEqual({ raceId: "r1", task: "fix", member: 2, of: 3, picked: true, notStarted: null });
    expect(reloaded.race("agent-z")).toBeNull();
    await expect(book.add(newRace())).rejects.toThrow(/exists/);
  });
});

describe("the compare tab's columns", () => {
  it("say each member's card, figures, merge and check, a card gone, a worktree removed and a check made stale by later edits", () => {
    let race = newRace();
    race = memberStarted(memberStarted(race, "fix-1", "a1"), "fix-2", "a2");
    race = recordCheck(race, "fix-1", { exitCode: 0, durationMs: 900, finishedAt: 5, tree: "t1" });
    race = recordCheck(race, "fix-2", { exitCode: 2, durationMs: 400, finishedAt: 6, tree: "old" });
    const file = { path: "App.tsx", status: "modified" as const, added: 1, removed: 1, binary: false };
    const changes = (tree: string) => ({ snapshot: `commit-of-${tree}`, tree, files: [file], added: 1, removed: 1, merge: { kind: "clean" as const } });
    const figures: Record<string, MemberFigures> = {
      "fix-1": { worktree: true, branch: true, changes: changes("t1") },
      "fix-2": { worktree: true, branch: true, changes: changes("t2") },
      "fix-3": { worktree: false, branch: true },
    };
    const view = compareView(race, {
      agent: (m) => (m.agentId === "a1" ? { id: "a1", name: "Agent #1", status: "waiting" } : undefined),
      figures: (m) => figures[m.name],
      checkRunningSince: () => undefined,
      checkCommand: "npm test",
      budget: { spent: "race fix: $0.40 of $0.50", paused: false },
    });
    expect(view.members.map((m) => [m.name, m.phase, m.agentName, m.check.state])).toEqual([
      ["fix-1", "agent", "Agent #1", "passed"],
      ["fix-2", "noAgent", null, "failed"],
      ["fix-3", "branchKept", null, "notRun"],
    ]);
    expect(view.members[0]!.check).toMatchObject({ exitCode: 0, durationMs: 900, stale: false });
    expect(view.members[1]!.check).toMatchObject({ exitCode: 2, stale: true });
    expect(view.members[0]!.changes).toEqual({ files: [{ path: "App.tsx", status: "modified", added: 1, removed: 1, binary: false }], added: 1, removed: 1 });
    expect(view.members[2]!.changes).toBeNull();
    expect(view.checkCommand).toBe("npm test");
  });

  it("say which member's agent did not start, and why, until it is retried and starts", () => {
    const inputs = {
      agent: () => undefined,
      figures: () => undefined,
      checkRunningSince: () => undefined,
      checkCommand: null,
      budget: { spent: "race fix: $0.00 (no cap on this race)", paused: false },
    };
    let race = memberStarted(memberStarted(newRace(), "fix-1", "a1"), "fix-2", "a2");
    race = memberNotStarted(race, "fix-2", "its claude was not ready in time");
    expect(compareView(race, inputs).members.map((m) => m.notStarted)).toEqual([null, "its claude was not ready in time", null]);
    // Retried: its new agent started, the notice goes.
    race = memberStarted(race, "fix-2", "a4");
    expect(compareView(race, inputs).members.map((m) => m.notStarted)).toEqual([null, null, null]);
  });
});

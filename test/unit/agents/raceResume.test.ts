/**
 * A fan-out cut by a window reload (issue 33: "a reload 1.5 s into a fan-out: 0 of 3 tasks ever
 * reach the model"): each member goes on from its last saved fact. One asked whose words may sit
 * in its box gets Enter alone; one launched but not asked is typed at once ready; one whose
 * worktree was never made gets it from the race's commit, an agent, and its task. None is typed
 * twice, and a race started long ago is left alone.
 */
import { describe, expect, it } from "vitest";
import { RaceBook } from "../../../src/agents/races/raceBook";
import { resumeRaces } from "../../../src/agents/races/raceResume";
import { memberAsked, memberStarted, startRace } from "../../../src/core/races/race";
import { fanOutFakes, memoryStore, settle } from "../../support/raceStartFakes";

/** The race as the reload left it: fix-1 asked (agent-8), fix-2 launched (agent-9), fix-3 not made. */
function cutRace(startedAt: number) {
  let race = startRace({
    id: "r1",
    task: "fix",
    prompt: "Fix the title",
    repo: "/repo",
    base: "main",
    now: startedAt,
    models: [null, null, null],
    commit: "c0ffee1",
  });
  race = memberAsked(memberStarted(race, "fix-1", "agent-8"), "fix-1");
  return memberStarted(race, "fix-2", "agent-9");
}

/** `orphan`: fix-3's worktree was made and its agent (agent-7) launched, the reload came before the race saved it. */
async function reloadInto(startedAt: number, orphan = false) {
  const book = new RaceBook(memoryStore());
  await book.add(cutRace(startedAt));
  const fakes = fanOutFakes(book);
  fakes.taken.set("agent-8", [false, true]);
  const deps = {
    ...fakes.deps,
    exists: (path: string) => orphan || !path.includes("fix-3"),
    branchExists: async (_repo: string, branch: string) => orphan || branch !== "worktree-fix-3",
    hasAgent: (id: string) => ["agent-7", "agent-8", "agent-9"].includes(id),
    agentIn: (folder: string) => (orphan && folder.endsWith("fix-3") ? "agent-7" : undefined),
    tookPrompt: () => false,
    wallClock: () => 60_000,
  };
  return { book, fakes, done: resumeRaces(deps) };
}

describe("a fan-out a reload cut", () => {
  it("goes on: Enter alone where its words may be, the task typed once where it never was, the missing worktree made", async () => {
    const { book, fakes, done } = await reloadInto(55_000);
    await settle();
    // Nothing is typed before that claude is ready; the missing member gets its worktree and agent.
    expect(fakes.events.filter((e) => e.startsWith("worktree") || e.startsWith("launch"))).toEqual([
      "worktree fix-3 from main@c0ffee1",
      "launch /repo/.claude/worktrees/fix-3 default -> agent-1 (race saved: true)",
    ]);
    expect(fakes.events.some((e) => e.startsWith("type") || e.startsWith("enter"))).toBe(false);
    for (const id of ["agent-8", "agent-9", "agent-1"]) fakes.ready(id);
    await done;
    const keys = fakes.events.filter((e) => e.startsWith("type") || e.startsWith("enter"));
    expect(keys.sort()).toEqual(["enter agent-8", "type agent-1: Fix the title", "type agent-9: Fix the title"]);
    // Saved: every member asked now, fix-3 with its new agent.
    expect(book.get("r1")!.members.map((m) => [m.name, m.agentId, m.asked])).toEqual([
      ["fix-1", "agent-8", true],
      ["fix-2", "agent-9", true],
      ["fix-3", "agent-1", true],
    ]);
  });

  it("takes the agent launched in a member's worktree just before the reload as that member's, and starts no second one", async () => {
    const { book, fakes, done } = await reloadInto(55_000, true);
    for (let i = 0; i < 5; i++) await settle();
    for (const id of ["agent-8", "agent-9", "agent-7"]) fakes.ready(id);
    await done;
    expect(fakes.events.some((e) => e.startsWith("launch") || e.startsWith("worktree"))).toBe(false);
    expect(fakes.events.filter((e) => e.startsWith("type agent-7"))).toEqual(["type agent-7: Fix the title"]);
    expect(book.get("r1")!.members.find((m) => m.name === "fix-3")).toMatchObject({ agentId: "agent-7", asked: true });
  });

  it("a member whose agent's terminal never comes back (made moments before the reload) gets an agent of its own, its task typed once", async () => {
    const book = new RaceBook(memoryStore());
    await book.add(cutRace(55_000));
    const fakes = fanOutFakes(book);
    fakes.taken.set("agent-8", [false, true]);
    // agent-9 (fix-2's, launched and saved, task not typed) is still reconnecting when the grace ends.
    let graceOver!: () => void;
    const grace = new Promise<void>((resolve) => (graceOver = resolve));
    const done = resumeRaces({
      ...fakes.deps,
      exists: () => true,
      branchExists: async () => true,
      hasAgent: (id: string) => ["agent-8", "agent-9"].includes(id),
      agentIn: () => undefined,
      tookPrompt: () => false,
      wallClock: () => 60_000,
      whenBack: async (id: string) => (id === "agent-9" ? (await grace, false) : true),
    });
    for (let i = 0; i < 5; i++) await settle();
    // While it may still come back, nothing else is started for it (fix-3, never launched, is).
    expect(fakes.events.filter((e) => e.startsWith("launch /repo/.claude/worktrees/fix-2"))).toEqual([]);
    graceOver();
    for (let i = 0; i < 5; i++) await settle();
    expect(fakes.events.filter((e) => e.startsWith("launch /repo/.claude/worktrees/fix-2"))).toEqual([
      "launch /repo/.claude/worktrees/fix-2 default -> agent-2 (race saved: true)",
    ]);
    for (const id of ["agent-8", "agent-1", "agent-2"]) fakes.ready(id);
    await done;
    const keys = fakes.events.filter((e) => e.startsWith("type") || e.startsWith("enter"));
    // Nothing for agent-9, which no key reached: each task once.
    expect(keys.sort()).toEqual(["enter agent-8", "type agent-1: Fix the title", "type agent-2: Fix the title"]);
    expect(book.get("r1")!.members.find((m) => m.name === "fix-2")).toMatchObject({ agentId: "agent-2", asked: true });
  });

  it("leaves a race started long ago as it is: no agent started, nothing typed, no Enter", async () => {
    const { fakes, done } = await reloadInto(0 - 60 * 60_000);
    await done;
    expect(fakes.events.filter((e) => !e.startsWith("log"))).toEqual([]);
  });
});

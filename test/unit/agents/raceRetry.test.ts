/**
 * A race member whose agent never became ready: its card's tag says so in words ("did not start:
 * …", from the race book) and Retry starts it again — its old agent closed, a new one launched in
 * the same worktree, its task typed once. Never a second typing of a task already typed.
 */
import { describe, expect, it } from "vitest";
import { RaceBook } from "../../../src/agents/races/raceBook";
import { RaceRetries } from "../../../src/agents/races/raceRetry";
import { startRace as fanOut } from "../../../src/agents/races/raceStart";
import { startRace } from "../../../src/core/races/race";
import { parseRaces } from "../../../src/core/races";
import { fanOutFakes, memoryStore, settle } from "../../support/raceStartFakes";

const newRace = () => startRace({ id: "r1", task: "fix", prompt: "Fix the title", repo: "/repo", base: "main", now: 0, models: [null, null, null] });

/** A race of three whose second member's claude was not ready in time; the book, the fakes and a Retry over them. */
async function withOneNotStarted() {
  const store = memoryStore();
  const book = new RaceBook(store);
  const fakes = fanOutFakes(book);
  const closed: string[] = [];
  const retries = new RaceRetries({ ...fakes.deps, close: (id) => void (closed.push(id), fakes.events.push(`close ${id}`)) });
  const done = fanOut(fakes.deps, newRace(), "c0ffee1");
  await settle();
  fakes.ready("agent-1");
  fakes.ready("agent-2", "timeout");
  fakes.ready("agent-3");
  const report = await done;
  return { store, book, fakes, closed, retries, report };
}

const typed = (events: string[]) => events.filter((e) => e.startsWith("type"));

describe("a race member that did not start", () => {
  it("its card's tag says why, in words, and the reason survives a reload", async () => {
    const { book, store, report } = await withOneNotStarted();
    expect(report.members[1]!.problem).toBe("its claude was not ready in time");
    expect(book.race("agent-2")?.notStarted).toBe("its claude was not ready in time");
    expect(book.race("agent-1")?.notStarted).toBeNull();
    expect(parseRaces(store.load())[0]!.members[1]!.notStarted).toBe("its claude was not ready in time");
  });

  it("Retry closes its old agent, launches a new one in the same worktree and types the task there once it is ready, once", async () => {
    const { book, fakes, retries } = await withOneNotStarted();
    const before = fakes.events.length;
    const retried = retries.retry("agent-2");
    await settle();
    expect(fakes.events.slice(before)).toEqual([
      "log race fix: fix-2: started again (Retry)",
      "close agent-2",
      "launch /repo/.claude/worktrees/fix-2 default -> agent-4 (race saved: true)",
    ]);
    // Nothing typed before the new claude is ready.
    expect(typed(fakes.events.slice(before))).toEqual([]);
    fakes.ready("agent-4");
    const report = await retried;
    expect(report.problem).toBeUndefined();
    expect(typed(fakes.events)).toEqual(["type agent-1: Fix the title", "type agent-3: Fix the title", "type agent-4: Fix the title"]);
    // The new card carries the race's tag, with nothing to retry; the member is asked.
    expect(book.race("agent-4")).toMatchObject({ member: 2, notStarted: null });
    expect(book.get("r1")!.members[1]).toMatchObject({ agentId: "agent-4", asked: true });
  });

  it("a second click while the retry is on its way starts nothing more; a member already asked is never retried", async () => {
    const { fakes, retries } = await withOneNotStarted();
    const first = retries.retry("agent-2");
    await expect(retries.retry("agent-2")).rejects.toThrow(/fix-2 is being started again already|not in a race/);
    await settle();
    fakes.ready("agent-4");
    await first;
    await expect(retries.retry("agent-4")).rejects.toThrow("fix-2 was asked its task already");
    await expect(retries.retry("agent-1")).rejects.toThrow("fix-1 was asked its task already");
    expect(fakes.events.filter((e) => e.startsWith("launch"))).toHaveLength(4);
    expect(typed(fakes.events)).toHaveLength(3);
  });

  it("a retry that does not start either says so again on the new card", async () => {
    const { book, fakes, retries } = await withOneNotStarted();
    const retried = retries.retry("agent-2");
    await settle();
    fakes.ready("agent-4", "exited");
    expect((await retried).problem).toBe("its claude exited before it was asked");
    expect(book.race("agent-4")?.notStarted).toBe("its claude exited before it was asked");
    expect(typed(fakes.events)).toHaveLength(2);
  });
});

/**
 * The compare tab's Retry (issue 33): a member whose agent did not start is started again through
 * the same path as its line's Retry; a message naming a member that started, or one never asked,
 * starts nothing (the page is untrusted: its message is checked against the race, not believed).
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../../../src/vscode/api", () => ({ vscode: { window: { showInformationMessage: () => undefined } } }));

const { raceAction } = await import("../../../src/vscode/races/raceActions");
const { memberNotStarted, memberStarted, startRace } = await import("../../../src/core/races/race");
type Deps = Parameters<typeof raceAction>[0];

function setup() {
  let race = startRace({ id: "r1", task: "fix", prompt: "Fix it", repo: "/repo", base: "main", models: [null, null, null], now: 1 });
  race = memberStarted(memberStarted(race, "fix-1", "a1"), "fix-2", "a2");
  race = memberNotStarted(race, "fix-2", "its claude was not ready in time");
  const retried: string[] = [];
  const deps = {
    book: { get: (id: string) => (id === "r1" ? race : undefined) },
    agents: { card: () => undefined, cards: () => [] },
    manager: { agentInfo: () => undefined, focus: () => undefined, close: () => undefined },
    retry: async (agentId: string) => void retried.push(agentId),
  } as unknown as Deps;
  return { deps, retried };
}

describe("the compare tab's Retry", () => {
  it("starts again only the member whose agent did not start, by its agent", async () => {
    const { deps, retried } = setup();
    await raceAction(deps, { type: "compareAction", raceId: "r1", member: "fix-2", action: "retry" });
    expect(retried).toEqual(["a2"]);
  });

  it("starts nothing for a member that started, one never asked, another race or an unknown member", async () => {
    const { deps, retried } = setup();
    await raceAction(deps, { type: "compareAction", raceId: "r1", member: "fix-1", action: "retry" });
    await raceAction(deps, { type: "compareAction", raceId: "r1", member: "fix-3", action: "retry" });
    await raceAction(deps, { type: "compareAction", raceId: "r2", member: "fix-2", action: "retry" });
    await raceAction(deps, { type: "compareAction", raceId: "r1", member: "fix-9", action: "retry" });
    expect(retried).toEqual([]);
  });
});

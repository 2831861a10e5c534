/**
 * A card's figures of its whole session (edited files, tokens and cost, earlier turns, a limit),
 * folded from what its session's follower reads — from transcripts the real CLI wrote, followed by
 * the real SessionFollower as an agent follows them, live or restored after a reload.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionCards } from "../../../src/agents/sessions/sessionCards";
import { SessionFollower } from "../../../src/core/engine";
import { loadScenario, recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const followers: SessionFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((f) => f.stop()));
});

/** Follows `path` as an agent's follower does, handing what it reads to the cards. */
async function follow(cards: SessionCards, agentId: string, path: string, restore: boolean): Promise<SessionFollower> {
  const follower = new SessionFollower(path, { restore, pollIntervalMs: 60_000, onRead: (read) => cards.read(agentId, read) });
  followers.push(follower);
  await follower.start();
  return follower;
}

/** A recorded scenario's files in a folder of their own (so appends and sub-agent folders are ours). */
function copyOf(scenario: string): string {
  const dir = tempDir();
  cpSync(loadScenario(scenario).dir, dir, { recursive: true });
  return join(dir, `${loadScenario(scenario).sessions[0]}.jsonl`);
}

describe("the files an agent changed this session, on its card", () => {
  it("appear when its tool ends (read from the transcript's new lines), and a new session (/clear) starts from none", async () => {
    const recorded = readFileSync(recordedSession("several-tools").path, "utf8").split("\n");
    const writeAt = recorded.findIndex((l) => l.includes('"name":"Write"'));
    const dir = tempDir();
    const first = join(dir, "first.jsonl");
    writeFileSync(first, `${recorded.slice(0, writeAt).join("\n")}\n`);
    const cards = new SessionCards(() => "/home/user/project");
    const changed: string[][] = [];
    cards.onDidChange((ids) => changed.push(ids));

    const follower = await follow(cards, "a1", first, false);
    expect(cards.sessionEdits("a1")).toBeNull();
    appendFileSync(first, recorded.slice(writeAt).join("\n"));
    await follower.pump();
    expect(cards.sessionEdits("a1")).toEqual({ files: ["created.txt"], total: 1 });
    expect(changed.at(-1)).toEqual(["a1"]);

    // /clear: the agent follows a new session's file (not written yet): its card starts from none.
    await follower.stop();
    await follow(cards, "a1", join(dir, "after-clear.jsonl"), false);
    expect(cards.sessionEdits("a1")).toBeNull();
    expect(cards.files("a1")).toEqual([]);
    cards.dispose();
  });
});

describe("a card's session figures", () => {
  it.each([false, true])("tokens and estimated cost, the earlier turns, and a limit that stopped the session (restored: %s)", async (restore) => {
    const cards = new SessionCards(() => "/home/user/project");
    await follow(cards, "resumed", recordedSession("rename-resume").path, restore);
    await follow(cards, "limited", recordedSession("usage-limit-print").path, restore);

    // The real CLI's own cost-state for this session said $0.00344 (4 replies, 400 input and 92 output tokens at Opus 5.5's price).
    expect(cards.usage("resumed")).toEqual({
      tokens: { input: 400, output: 92, cacheRead: 0, cacheWrite: 0 },
      costUsd: expect.closeTo(0.00344, 9),
      unpricedModels: [],
    });
    expect(cards.history("resumed")).toEqual([
      {
        number: 1,
        prompt: "Plan the billing fix",
        durationMs: expect.any(Number),
        tools: 1,
        ending: "completed",
        rows: [{ label: "echo planned", outcome: "done" }],
      },
    ]);
    expect(cards.limit("resumed")).toBeNull();
    expect(cards.limit("limited")).toBe("Rate limited by the API (429)");
    cards.dispose();
  });

  it("a sub-agent's tokens count for its session, live and restored alike", async () => {
    const live = new SessionCards(() => undefined);
    const restored = new SessionCards(() => undefined);
    await follow(live, "a", copyOf("subagent-foreground"), false);
    await follow(restored, "a", copyOf("subagent-foreground"), true);
    const mainOnly = new SessionCards(() => undefined);
    const main = join(tempDir(), "main-only.jsonl");
    writeFileSync(main, readFileSync(recordedSession("subagent-foreground").path));
    await follow(mainOnly, "a", main, false);

    const total = (c: SessionCards) => Object.values(c.usage("a")!.tokens).reduce((a, b) => a + b, 0);
    expect(total(live)).toBeGreaterThan(total(mainOnly));
    expect(restored.usage("a")).toEqual(live.usage("a"));
    expect(restored.files("a")).toEqual(live.files("a"));
  });
});

/**
 * A Sessions row of a session a card follows shows the card's figures, and changes with them
 * (issue 33: a row once read an older token count than the card). The index's digest is its own,
 * earlier reading of the file; the card's figures are its follower's. A transcript the real CLI
 * wrote, read by the real index and the real SessionFollower.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { followRowFigures, SessionCards } from "../../../src/agents/sessions/sessionCards";
import { sessionRow } from "../../../src/agents/sessions/sessionRows";
import { SessionFollower } from "../../../src/core/engine";
import { SessionIndex } from "../../../src/core/sessions/sessionIndex";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const followers: SessionFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((f) => f.stop()));
});

const SESSION = "5b0e3c1a-0000-4000-8000-00000000f001";
const context = { followedBy: (id: string) => (id === SESSION ? "Agent #1" : undefined), worktreeOf: () => undefined, now: 0 };
const sum = (t: { input: number; output: number; cacheRead: number; cacheWrite: number }) => t.input + t.output + t.cacheRead + t.cacheWrite;

/** The recorded session's first turn in a project folder of its own, and the rest of its lines to append. */
function halfWritten(): { dir: string; path: string; rest: string } {
  const lines = readFileSync(recordedSession("rename-resume").path, "utf8").split("\n");
  const cut = lines.findIndex((l, i) => i > 0 && l.includes('"Continue the billing fix"'));
  expect(cut).toBeGreaterThan(0);
  const dir = tempDir();
  const path = join(dir, `${SESSION}.jsonl`);
  writeFileSync(path, `${lines.slice(0, cut).join("\n")}\n`);
  return { dir, path, rest: lines.slice(cut).join("\n") };
}

describe("a followed session's Sessions row", () => {
  it("shows the card's tokens and cost, not the index's earlier reading, and is told again when the card's figures change", async () => {
    const { dir, path, rest } = halfWritten();
    // The Sessions view listed the session while its first turn was written: the index read it then.
    const index = new SessionIndex(undefined);
    const [listed] = await index.list([dir]);
    let entry = listed!;
    await index.fill([entry], (done) => (entry = done));
    const indexTokens = sum(Object.values(entry.digest!.usage.byModel)[0]!);

    // The agent's card follows the same file; the agent works on (its second turn is written).
    const cards = new SessionCards(() => undefined);
    const told: string[][] = [];
    followRowFigures(cards, (ids) => told.push(ids));
    const follower = new SessionFollower(path, { restore: false, pollIntervalMs: 60_000, onRead: (read) => cards.read("a1", read) });
    followers.push(follower);
    await follower.start();
    appendFileSync(path, rest);
    await follower.pump();
    await Promise.resolve();

    const card = cards.usage("a1")!;
    expect(sum(card.tokens)).toBeGreaterThan(indexTokens);
    // The row the view sends for it (from the entry it holds) reads as the card does.
    const row = sessionRow(entry, { ...context, cardFigures: (id) => cards.rowFigures(id) });
    expect(row.tokens).toBe(sum(card.tokens));
    expect(row.costUsd).toBe(card.costUsd);
    expect(row.followedBy).toBe("Agent #1");
    // The view is told which session's row to send again (once per tick, however many reads).
    expect(told.flat()).toContain(SESSION);
    expect(told.every((ids) => new Set(ids).size === ids.length)).toBe(true);
    cards.dispose();
  });

  it("a session no card has read keeps the index's figures", async () => {
    const { dir } = halfWritten();
    const index = new SessionIndex(undefined);
    const [listed] = await index.list([dir]);
    let entry = listed!;
    await index.fill([entry], (done) => (entry = done));
    const cards = new SessionCards(() => undefined);
    const row = sessionRow(entry, { ...context, cardFigures: (id) => cards.rowFigures(id) });
    expect(row.tokens).toBe(sum(Object.values(entry.digest!.usage.byModel)[0]!));
  });
});

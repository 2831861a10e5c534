/**
 * A race member's working time after a window reload, as the compare tab reads it again from the
 * transcripts alone (a new window's figures, nothing kept in memory): a turn the CLI ended with
 * `turn_duration` counts that figure; a turn that has none — its CLI killed mid-turn by the reload,
 * or stopped by Escape — counts from its prompt to its last record, as the card's turn rows do. It
 * read "Working —" (0), though the member had worked. Recorded from the real CLI
 * (test/fixtures/recorded/several-tools), cut where the CLI was killed.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareView } from "../../../src/agents/races/compareView";
import { RaceFigures } from "../../../src/agents/races/raceFigures";
import { FolderSessions } from "../../../src/core/races/folderSessions";
import type { Race } from "../../../src/core/races/race";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const SESSION = recordedSession("several-tools").path;
const lines = readFileSync(SESSION, "utf8").split("\n").filter(Boolean);
const records = lines.map((l) => JSON.parse(l) as { type: string; subtype?: string; timestamp?: string; durationMs?: number; message?: { content?: unknown } });
const at = (i: number) => Date.parse(records[i]!.timestamp!);
const turnEnd = records.findIndex((r) => r.type === "system" && r.subtype === "turn_duration");
const prompt = records.findIndex((r) => r.type === "user" && typeof r.message?.content === "string");

const race: Race = {
  id: "r1",
  task: "fix",
  prompt: "Fix it",
  repo: "/nowhere",
  base: "main",
  commit: null,
  startedAt: 0,
  members: [{ name: "fix-1", number: 1, model: null, agentId: null, asked: true }],
  picked: null,
  checks: {},
};

/** The compare tab of a window opened now (after the reload): its figures read from the folder alone, and its column's working time. */
async function workingAfterReload(folder: string): Promise<number | undefined> {
  const figures = new RaceFigures({
    memberChanges: () => Promise.reject(new Error("not asked: no worktree")),
    sessionsOf: () => new FolderSessions(folder),
    worktreeExists: () => false,
    branchExists: async () => false,
    log: () => undefined,
  });
  try {
    await figures.readNow(race);
    const view = compareView(race, {
      agent: () => undefined,
      figures: (m) => figures.of(race, m),
      checkRunningSince: () => undefined,
      checkCommand: null,
      budget: { spent: "", paused: false },
    });
    return view.members[0]!.sessions?.activeMs;
  } finally {
    figures.dispose();
  }
}

describe("a race member's working time after a reload", () => {
  it("a turn its CLI ended: the CLI's own turn_duration, as before the reload", async () => {
    const folder = tempDir();
    copyFileSync(SESSION, join(folder, basename(SESSION)));
    expect(await workingAfterReload(folder)).toBe(records[turnEnd]!.durationMs);
  });

  it("a turn cut by the reload (its CLI killed before turn_duration): from its prompt to its last record, not nothing", async () => {
    const folder = tempDir();
    writeFileSync(join(folder, basename(SESSION)), lines.slice(0, turnEnd).join("\n") + "\n");
    const lastStamped = turnEnd - 1 - [...records.slice(0, turnEnd)].reverse().findIndex((r) => r.timestamp !== undefined);
    const worked = at(lastStamped) - at(prompt);
    expect(worked).toBeGreaterThan(0);
    expect(await workingAfterReload(folder)).toBe(worked);
  });
});

/**
 * Restoring from the tail must give the state a full read gives. Property-checked on every
 * recorded real-CLI session, cut after every line: restore (current turn only) vs. full replay.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentState } from "../../src/core/agent/agentState";
import { replaySessions } from "../../src/core/engine/replay";
import { findRestorePoint, isTurnBoundary } from "../../src/core/engine/restorePoint";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { ManualClock } from "../../src/core/util/clock";
import { noWatch } from "../../src/core/util/fileWatch";
import { loadScenario, recordedScenarioNames, sessionFiles } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

/** What a person sees: status, the outcome when idle, and which tools are running. */
function visible(state: AgentState) {
  return {
    status: state.status,
    lastTurn: state.status === "waiting" ? state.lastTurn : "(active)",
    activeTools: state.activeTools.list().map((t) => t.id),
  };
}

async function restoredState(file: string): Promise<AgentState> {
  const follower = new SessionFollower(file, { clock: new ManualClock(), watch: noWatch, restore: true });
  await follower.start();
  await follower.stop();
  return follower.state;
}

const mainFiles = recordedScenarioNames()
  .map(loadScenario)
  .filter((s) => s.mode === "interactive")
  .flatMap((s) => sessionFiles(s).map((f) => [`${s.scenario}/${f.split("/").pop()}`, f] as const));

describe("restore from the tail", () => {
  it.each(mainFiles)("%s: equals a full read after every line", async (_name, source) => {
    const lines = readFileSync(source, "utf8").split("\n").filter(Boolean);
    const file = join(tempDir(), "session.jsonl");
    writeFileSync(file, "");
    for (const line of lines) {
      appendFileSync(file, `${line}\n`);
      const full = await replaySessions([file], { finishTimers: false });
      expect(visible(await restoredState(file))).toEqual(visible(full.final));
    }
  });

  it("reads only from the current turn's start, not the whole file", async () => {
    const scenario = loadScenario("several-tools");
    const [source] = sessionFiles(scenario);
    const turn = readFileSync(source as string, "utf8");
    const file = join(tempDir(), "long.jsonl");
    // Fifty finished turns, then the same turn again: restore must start at the last prompt.
    writeFileSync(file, turn.repeat(51));
    const point = await findRestorePoint(file);
    expect(point.found).toBe("boundary");
    const lastTurnStart = turn.length * 50;
    expect(point.offset).toBeGreaterThanOrEqual(lastTurnStart);
    const fromPoint = readFileSync(file).subarray(point.offset).toString("utf8");
    expect(isTurnBoundary(fromPoint.slice(0, fromPoint.indexOf("\n")))).toBe(true);
  });

  it("ignores an unfinished last line while looking for the turn", async () => {
    const file = join(tempDir(), "torn.jsonl");
    const [source] = sessionFiles(loadScenario("text-only"));
    writeFileSync(file, `${readFileSync(source as string, "utf8")}{"parentUuid":"x","type":"user","mess`);
    const state = await restoredState(file);
    expect(state.status).toBe("waiting");
  });

  it("treats a turn longer than the restore window as still running", async () => {
    const file = join(tempDir(), "huge-turn.jsonl");
    const filler = JSON.stringify({ type: "attachment", attachment: { text: "x".repeat(1000) } });
    writeFileSync(file, `${filler}\n`.repeat(10));
    const point = await findRestorePoint(file, 4000);
    expect(point.found).toBe("window");
  });
});

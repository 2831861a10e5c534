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
import { agentUse, asyncLaunched, jsonl, prompt, reply, turnEnd } from "../support/records";
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

  it("finds a turn's start many chunks back, reading chunk by chunk", async () => {
    const file = join(tempDir(), "long-turn.jsonl");
    const filler = JSON.stringify({ type: "attachment", attachment: { text: "x".repeat(1000) } });
    const start = `${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`;
    writeFileSync(file, `${filler}\n${start}${`${filler}\n`.repeat(10)}`);
    const point = await findRestorePoint(file, { chunkBytes: 300 });
    expect(point).toEqual({ found: "boundary", offset: filler.length + 1, prelude: [] });
  });

  it("agrees with replay on how a text-only turn ended when the next record came after its idle wait", async () => {
    // Print mode writes no turn_duration: the reply ends the turn once 3 s pass with nothing else.
    // Here a local command came 10 s later. Replay's clock follows the timestamps; restore reads
    // it all at once: both must call the turn completed.
    const stamp = (s: number) => `2026-11-22T05:37:${String(s).padStart(2, "0")}.000Z`;
    const file = join(tempDir(), "text-then-command.jsonl");
    writeFileSync(
      file,
      jsonl([
        { ...prompt("hi"), timestamp: stamp(0) },
        { ...reply("hello"), timestamp: stamp(1) },
        { ...prompt("<command-name>/model</command-name>"), timestamp: stamp(11) },
        { ...prompt("<local-command-stdout>Set model</local-command-stdout>"), timestamp: stamp(11) },
      ]),
    );
    const full = await replaySessions([file], { finishTimers: false });
    const restored = await restoredState(file);
    expect(full.final).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect({ status: restored.status, lastTurn: restored.lastTurn }).toEqual({ status: "waiting", lastTurn: "completed" });
  });

  it("does not trust an older CLI's silence about pending background agents", async () => {
    // Before 2.1.330 a turn end without `pendingBackgroundAgentCount` does not mean "none".
    const old = { version: "2.1.100" };
    const file = join(tempDir(), "old-cli.jsonl");
    writeFileSync(
      file,
      jsonl([
        prompt("one"),
        agentUse("t_bg", "SUBTASK"),
        asyncLaunched("t_bg"),
        { ...turnEnd(), ...old },
        prompt("two"),
        { ...turnEnd(), ...old },
        prompt("three"),
        { ...turnEnd(), ...old },
      ]),
    );
    const point = await findRestorePoint(file, { chunkBytes: 64 });
    expect(point.prelude.map((r) => (r as { type: string }).type)).toEqual(["assistant", "user"]);
    expect(visible(await restoredState(file)).activeTools).toEqual(["t_bg"]);
  });

  it("finds a background agent launched turns ago, before a later turn's end that counts it as pending (recorded, CLI 2.1.330)", async () => {
    const [source] = sessionFiles(loadScenario("subagent-background-later-turn"));
    const lines = readFileSync(source as string, "utf8")
      .split("\n")
      .filter(Boolean);
    const records = lines.map((l) => JSON.parse(l) as { type?: string; subtype?: string; pendingBackgroundAgentCount?: number });
    const turnEnds = records.map((r, i) => [r, i] as const).filter(([r]) => r.type === "system" && r.subtype === "turn_duration");
    // The CLI fact restore stops on: a later turn's end still counts the agent launched before it.
    expect(turnEnds.map(([r]) => r.pendingBackgroundAgentCount)).toEqual([1, 1, undefined]);
    const secondEnd = (turnEnds[1] as readonly [unknown, number])[1];
    const file = join(tempDir(), "session.jsonl");
    writeFileSync(file, `${lines.slice(0, secondEnd + 1).join("\n")}\n`);

    // Chunks far smaller than a turn: the launch lies many chunks before the last turn's start.
    const point = await findRestorePoint(file, { chunkBytes: 512, firstChunkBytes: 512 });
    expect(point.found).toBe("boundary");
    const launch = lines.findIndex((l) => l.includes('"async_launched"'));
    expect(point.offset).toBeGreaterThan(Buffer.byteLength(lines.slice(0, launch + 1).join("\n")));
    expect(point.prelude.map((r) => (r as { type: string }).type)).toEqual(["assistant", "user"]);
    const full = await replaySessions([file], { finishTimers: false });
    expect(visible(await restoredState(file))).toEqual(visible(full.final));
    expect(visible(full.final).activeTools).toHaveLength(1);
  });

  it("finds a background agent launched long before the tail that finished during the last turn, its notification not written yet", async () => {
    // The CLI counts agents still running at a turn's end: one that finished during the last turn
    // is not counted there, yet its task notification comes only after that end. Until it does,
    // a full read shows the agent running; restore once stopped at that count of 0 when the launch
    // lay more than a chunk (4 MB) back, and lost the agent until the notification.
    const filler = Array.from({ length: 40 }, (_, i) => [prompt(`turn ${i}`), reply("x".repeat(200)), turnEnd(1)]).flat();
    const file = join(tempDir(), "session.jsonl");
    writeFileSync(
      file,
      jsonl([prompt("one"), agentUse("t_bg", "SUBTASK"), asyncLaunched("t_bg"), turnEnd(1), ...filler, prompt("last"), reply("done"), turnEnd()]),
    );
    const full = await replaySessions([file], { finishTimers: false });
    expect(visible(full.final).activeTools).toEqual(["t_bg"]);
    // Chunks far smaller than the file: the launch lies many chunks before the last turn.
    const point = await findRestorePoint(file, { chunkBytes: 1024, firstChunkBytes: 1024 });
    expect(point.prelude.map((r) => (r as { type: string }).type)).toEqual(["assistant", "user"]);
    expect(visible(await restoredState(file))).toEqual(visible(full.final));
  });
});

/**
 * Restore past its first look: a turn longer than the 4 MB first chunk, and background sub-agents
 * launched long before the end of the file. The restored card must equal a full read: the running
 * calls (foreground and background), the sub-agents' own tools, and every row of the current turn.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentState } from "../../src/core/agent/agentState";
import { deriveToolCalls } from "../../src/core/agent/toolCalls";
import { replaySessions } from "../../src/core/engine/replay";
import { RESTORE_MAX_BYTES } from "../../src/core/engine/restorePoint";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { ManualClock } from "../../src/core/util/clock";
import { noWatch } from "../../src/core/util/fileWatch";
import { agentUse, asyncLaunched, jsonl, prompt, reply, taskNotification, toolResult, toolUse, turnEnd, writeSubagent } from "../support/records";
import { useTempDirs } from "../support/tempDir";

/** Any session id: the file is written under it. */
const SESSION_ID = "3f1c2b4a-5d6e-4f70-8192-a3b4c5d6e7f8";

const tempDir = useTempDirs();

/** Just more than the first look at the file's end: two reads of 2.5 MB each. */
const pastTheWindow = (tag: string) => {
  const output = "x".repeat(Math.ceil(RESTORE_MAX_BYTES / 2) + 1024);
  return [toolUse(`${tag}_read1`, "Read"), toolResult(`${tag}_read1`, output), toolUse(`${tag}_read2`, "Read"), toolResult(`${tag}_read2`, output)];
};

function visible(state: AgentState) {
  return { status: state.status, lastTurn: state.lastTurn, activeTools: state.activeTools.list().map((t) => [t.id, t.background]) };
}

async function restore(file: string): Promise<{ state: AgentState; events: TranscriptEvent[] }> {
  const follower = new SessionFollower(file, { clock: new ManualClock(), watch: noWatch, restore: true });
  const events: TranscriptEvent[] = [];
  follower.onDidChange(({ events: e }) => events.push(...e));
  await follower.start();
  await follower.stop();
  return { state: follower.state, events };
}

function session(records: readonly unknown[]): string {
  const file = join(tempDir(), `${SESSION_ID}.jsonl`);
  writeFileSync(file, jsonl(records));
  return file;
}

describe("restore of a turn longer than the first chunk", () => {
  it("links the running foreground sub-agent, follows its file, and shows every row of the turn", async () => {
    const file = session([
      prompt("one"),
      reply("done"),
      turnEnd(),
      prompt("two"),
      toolUse("t_first"),
      toolResult("t_first"),
      agentUse("t_fg", "SUBTASK: count"),
      ...pastTheWindow("fg"),
    ]);
    writeSubagent(file, "afg", "t_fg", [prompt("SUBTASK: count"), toolUse("s_fg")]);
    const { state, events } = await restore(file);
    const full = await replaySessions([file], { finishTimers: false });

    expect(visible(state)).toEqual({
      status: "active",
      lastTurn: "none",
      activeTools: [
        ["t_fg", false],
        ["s_fg", false],
      ],
    });
    expect(visible(state)).toEqual({ ...visible(full.final), lastTurn: "none" });
    // The card's rows: the whole current turn, from its first call on.
    expect(deriveToolCalls(events).map((c) => [c.id, c.outcome])).toEqual([
      ["t_first", "done"],
      ["t_fg", "running"],
      ["fg_read1", "done"],
      ["fg_read2", "done"],
      ["s_fg", "running"],
    ]);
  });

  it("keeps a background sub-agent launched early in that turn running, and follows its file", async () => {
    const file = session([prompt("go"), agentUse("t_bg", "SUBTASK: watch"), asyncLaunched("t_bg"), ...pastTheWindow("bg")]);
    writeSubagent(file, "abg", "t_bg", [prompt("SUBTASK: watch"), toolUse("s_bg")]);
    const { state } = await restore(file);
    const full = await replaySessions([file], { finishTimers: false });
    expect(visible(state).activeTools).toEqual([
      ["t_bg", true],
      ["s_bg", false],
    ]);
    expect(visible(state)).toEqual({ ...visible(full.final), lastTurn: "none" });
  });
});

describe("restore of a background sub-agent launched turns ago", () => {
  it("finds it running however much was written since", async () => {
    const file = session([
      prompt("one"),
      agentUse("t_bg", "SUBTASK: watch"),
      asyncLaunched("t_bg"),
      reply("launched"),
      turnEnd(1),
      prompt("two"),
      ...pastTheWindow("two"),
      reply("read"),
      turnEnd(1),
      prompt("three"),
      reply("short"),
      turnEnd(1),
    ]);
    const { state, events } = await restore(file);
    const full = await replaySessions([file], { finishTimers: false });
    expect(visible(state)).toEqual({ status: "waiting", lastTurn: "completed", activeTools: [["t_bg", true]] });
    expect(visible(state)).toEqual(visible(full.final));
    // Only its launch is read from that turn: not the turn's other calls.
    expect(deriveToolCalls(events).map((c) => c.id)).toEqual(["t_bg"]);
  });

  it("leaves one that reported back ended", async () => {
    const file = session([
      prompt("one"),
      agentUse("t_bg", "SUBTASK: watch"),
      asyncLaunched("t_bg"),
      reply("launched"),
      turnEnd(1),
      taskNotification("t_bg"),
      reply("it reported"),
      turnEnd(),
      prompt("two"),
      ...pastTheWindow("two"),
      reply("read"),
      turnEnd(),
      prompt("three"),
      reply("short"),
      turnEnd(),
    ]);
    const { state } = await restore(file);
    expect(visible(state)).toEqual({ status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("finds the older of two when the newer one reported back (the pending count still said one)", async () => {
    const file = session([
      prompt("one"),
      agentUse("t_old", "SUBTASK: old"),
      asyncLaunched("t_old"),
      turnEnd(1),
      prompt("two"),
      ...pastTheWindow("two"),
      turnEnd(1),
      prompt("three"),
      agentUse("t_new", "SUBTASK: new"),
      asyncLaunched("t_new"),
      turnEnd(2),
      taskNotification("t_new"),
      reply("new one reported"),
      turnEnd(1),
      prompt("four"),
      reply("short"),
      turnEnd(1),
    ]);
    const { state } = await restore(file);
    const full = await replaySessions([file], { finishTimers: false });
    expect(visible(state).activeTools).toEqual([["t_old", true]]);
    expect(visible(state)).toEqual(visible(full.final));
  });
});

/**
 * Records in an order or shape the CLI should not write, but a file can hold: the card and the
 * call list must still agree and end every tool.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayCommand } from "../../src/cli/replayCommand";
import { replaySessions } from "../../src/core/engine/replay";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { ManualClock } from "../../src/core/util/clock";
import { noWatch } from "../../src/core/util/fileWatch";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

const prompt = (text: string) => ({ type: "user", message: { role: "user", content: text } });
const use = (id: string, msg: string) => ({
  type: "assistant",
  message: { id: msg, content: [{ type: "tool_use", id, name: "Bash", input: { command: "ls" } }], stop_reason: "tool_use" },
});
const result = (id: string) => ({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] } });
const turnEnd = { type: "system", subtype: "turn_duration", durationMs: 1 };

function transcript(records: unknown[], prefix = ""): string {
  const file = join(tempDir(), "s.jsonl");
  writeFileSync(file, `${prefix}${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

describe("a tool_use id seen again", () => {
  it("in a later turn, is the same call: listed once, done, and not running again", async () => {
    const file = transcript([prompt("one"), use("t1", "m1"), result("t1"), turnEnd, prompt("two"), use("t1", "m2")]);
    const { calls, final } = await replaySessions([file]);
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([["t1", "done"]]);
    expect(final.activeTools.list()).toEqual([]);
  });
});

describe("a tool_result read before its tool_use", () => {
  it("ends the tool as soon as the tool_use arrives, with the result's outcome", async () => {
    const file = transcript([prompt("go"), result("t1"), use("t1", "m1")]);
    const { calls, final } = await replaySessions([file], { finishTimers: false });
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([["t1", "done"]]);
    expect(final.activeTools.list()).toEqual([]);
  });
});

describe("a leading UTF-8 byte order mark", () => {
  it("is ignored: the first record still counts", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), result("t1"), turnEnd], "\uFEFF");
    const { calls, final, stats } = await replaySessions([file]);
    expect(stats.malformed).toBe(0);
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([["t1", "done"]]);
    expect(final).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });
});

describe("a line over the size cap", () => {
  const huge = (id: string) => ({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, content: "x".repeat(4096) }] } });

  it("replay: counted and reported on stderr", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), huge("t1"), turnEnd]);
    const { stats } = await replaySessions([file], { maxLineBytes: 1024, chunkBytes: 256 });
    expect(stats.oversized).toBe(1);
    const err: string[] = [];
    await replayCommand([file], true, { out: () => {}, err: (l) => err.push(l) }, { maxLineBytes: 1024, chunkBytes: 256 });
    expect(err).toEqual([expect.stringMatching(/dropped 1 line over 1024 bytes/)]);
  });

  it("live: counted and reported with one log line", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), huge("t1"), turnEnd]);
    const warnings: string[] = [];
    const follower = new SessionFollower(file, {
      clock: new ManualClock(),
      watch: noWatch,
      maxLineBytes: 1024,
      maxBytesPerRead: 256,
      onWarning: (m) => warnings.push(m),
    });
    await follower.start();
    await follower.stop();
    expect(follower.stats.oversized).toBe(1);
    expect(warnings).toEqual([expect.stringContaining("over 1024 bytes")]);
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("replay: the call whose result it held ends 'unknown' (ended, output unknown), in the call list, --json and the timeline", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), huge("t1"), turnEnd]);
    const { calls } = await replaySessions([file], { maxLineBytes: 1024, chunkBytes: 256 });
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([["t1", "unknown"]]);
    const json: string[] = [];
    await replayCommand([file], true, { out: (l) => json.push(l), err: () => {} }, { maxLineBytes: 1024, chunkBytes: 256 });
    expect(JSON.parse(json[0] as string)).toMatchObject({ kind: "tool", id: "t1", outcome: "unknown" });
    const timeline: string[] = [];
    await replayCommand([file], false, { out: (l) => timeline.push(l), err: () => {} }, { maxLineBytes: 1024, chunkBytes: 256 });
    expect(timeline).toContainEqual(expect.stringMatching(/\? Running: ls: unknown$/));
  });

  it("live: the call whose result it held ends 'unknown'", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), huge("t1"), turnEnd]);
    const follower = new SessionFollower(file, { clock: new ManualClock(), watch: noWatch, maxLineBytes: 1024, maxBytesPerRead: 256 });
    const ends: string[] = [];
    follower.onDidChange(({ events }) => {
      for (const e of events) if (e.kind === "toolEnd") ends.push(`${e.id}:${e.outcome}`);
    });
    await follower.start();
    await follower.stop();
    expect(ends).toEqual(["t1:unknown"]);
  });

  it("an Agent call ending 'unknown' ends its sub-agent's tools with it", async () => {
    const agent = { type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "a1", name: "Agent", input: { prompt: "sub" } }] } };
    const subPrompt = { type: "user", isSidechain: true, uuid: "u1", message: { role: "user", content: "sub" } };
    const subUse = {
      type: "assistant",
      isSidechain: true,
      parentUuid: "u1",
      uuid: "u2",
      message: { id: "m2", content: [{ type: "tool_use", id: "s1", name: "Bash", input: {} }] },
    };
    const file = transcript([prompt("go"), agent, subPrompt, subUse, huge("a1"), turnEnd]);
    const { calls, final } = await replaySessions([file], { maxLineBytes: 1024, chunkBytes: 256, finishTimers: false });
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([
      ["a1", "unknown"],
      ["s1", "unknown"],
    ]);
    expect(final.activeTools.list()).toEqual([]);
  });

  it("a call started after the dropped line, closed without a result, is still 'orphaned'; one with its result is 'done'", async () => {
    const file = transcript([prompt("go"), use("t1", "m1"), result("t1"), huge("t0"), use("t2", "m2"), use("t3", "m3"), result("t3"), turnEnd]);
    const { calls } = await replaySessions([file], { maxLineBytes: 1024, chunkBytes: 256 });
    expect(calls.map((c) => [c.id, c.outcome])).toEqual([
      ["t1", "done"],
      ["t2", "orphaned"],
      ["t3", "done"],
    ]);
  });
});

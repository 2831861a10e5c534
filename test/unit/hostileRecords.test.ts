/**
 * Records in an order or shape the CLI should not write, but a file can hold: the card and the
 * call list must still agree and end every tool.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaySessions } from "../../src/core/engine/replay";
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

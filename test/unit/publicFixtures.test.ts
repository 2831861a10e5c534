/**
 * Every public transcript in test/fixtures/public goes through the engine: nothing throws,
 * and every tool_use in the file is accounted for with an outcome.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { replaySessions } from "../../src/core/engine/replay";
import { publicTranscripts } from "../support/publicFixtures";

function toolUseIds(file: string): Set<string> {
  const ids = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const content = (record as { message?: { content?: unknown } } | null)?.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) if (block?.type === "tool_use") ids.add(block.id);
  }
  return ids;
}

describe("public transcripts", () => {
  const files = publicTranscripts();

  it("are there to test against", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files.map((f) => [basename(f), f]))("%s: every tool_use is accounted for", async (_name, file) => {
    const { calls, final } = await replaySessions([file]);
    const expected = toolUseIds(file);
    expect(new Set(calls.map((c) => c.id))).toEqual(expected);
    for (const call of calls) expect(["done", "error", "interrupted", "orphaned", "running"]).toContain(call.outcome);
    // A tool still "running" at the end must be one whose result is not in the file.
    const unresolved = calls.filter((c) => c.outcome === "running").map((c) => c.id);
    expect(
      final.activeTools
        .list()
        .map((t) => t.id)
        .sort(),
    ).toEqual(unresolved.sort());
  });

  it("the 167-call session from CLI 1.0.98 ends with every call finished", async () => {
    const file = files.find((f) => basename(f).startsWith("fe5e1c67"));
    const { calls, final } = await replaySessions([file as string]);
    expect(calls).toHaveLength(167);
    expect(calls.filter((c) => c.outcome === "running")).toEqual([]);
    expect(final.status).toBe("waiting");
    // Its Task calls ran sub-agents inline (isSidechain records): their tools sit under them.
    const taskIds = new Set(calls.filter((c) => c.name === "Task").map((c) => c.id));
    const nested = calls.filter((c) => c.parent !== null);
    expect(nested.length).toBeGreaterThan(0);
    for (const call of nested) expect(taskIds.has(call.parent as string)).toBe(true);
  });

  it("links inline sub-agent tools to the Task call that was given the same prompt", async () => {
    const file = files.find((f) => basename(f).startsWith("5c0375b4"));
    const { calls } = await replaySessions([file as string]);
    const byId = new Map(calls.map((c) => [c.id, c]));
    // Two Tasks run side by side; the package.json sub-agent belongs to "Check p…", not "Analyze…".
    const read = calls.find((c) => c.label === "Reading package.json" && c.parent !== null);
    expect(byId.get(read?.parent as string)?.label).toMatch(/^Subtask: Check p/);
  });

  it("skips lines that are not JSON objects or have no known type, without losing the rest", async () => {
    const file = files.find((f) => basename(f) === "edge_cases.jsonl") as string;
    const { stats, calls } = await replaySessions([file]);
    expect(stats.notObject).toBe(3);
    expect(stats.unknownType).toBe(1);
    expect(calls.length).toBeGreaterThan(0);
  });
});

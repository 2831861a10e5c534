/** A session as a person reads it, built by the cards' engine, handed over in batches. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type SessionBatch, type SessionItem, streamSessionDocument } from "../../../src/core/sessions/sessionDocument";
import { RECORDED, recordedSession } from "../../support/recorded";

async function read(file: string, batchItems?: number): Promise<{ items: SessionItem[]; batches: SessionBatch[] }> {
  const batches: SessionBatch[] = [];
  await streamSessionDocument(file, (b) => batches.push(structuredClone(b)), { batchItems });
  const items = batches.flatMap((b) => b.items);
  for (const update of batches.flatMap((b) => b.updates)) {
    const item = items.find((i) => i.kind === "tool" && i.id === update.id);
    if (item && item.kind === "tool") [item.outcome, item.label] = [update.outcome, update.label];
  }
  return { items, batches };
}

const line = (item: SessionItem) => {
  switch (item.kind) {
    case "prompt":
      return `prompt ${item.turn}: ${item.text}`;
    case "reply":
      return `reply: ${item.text}`;
    case "tool":
      return `${item.parent ? "  " : ""}tool ${item.label}: ${item.outcome}`;
    case "error":
      return `error: ${item.text}`;
    default:
      return item.kind;
  }
};

describe("a session's document", () => {
  it("shows prompts, tool rows with their outcomes, replies and turn ends, in order, across a --resume", async () => {
    const { items } = await read(recordedSession("rename-resume").path);
    expect(items.map(line)).toEqual([
      "prompt 1: Plan the billing fix",
      "tool echo planned: done",
      "reply: Done with this step.",
      "turnEnd",
      "reply: No response requested.",
      "prompt 2: Continue the billing fix",
      "tool echo planned: done",
      "reply: Done with this step.",
      "turnEnd",
    ]);
  });

  it("nests a sub-agent's calls under its Subtask, and shows an interrupt and a limit error", async () => {
    const sub = (
      await read(
        join(
          RECORDED,
          "subagent-foreground",
          (await import("node:fs")).readdirSync(join(RECORDED, "subagent-foreground")).find((n) => n.endsWith(".jsonl"))!,
        ),
      )
    ).items;
    const subtask = sub.find((i) => i.kind === "tool" && i.label.startsWith("Subtask"));
    expect(subtask).toBeDefined();
    expect(sub.some((i) => i.kind === "tool" && subtask?.kind === "tool" && i.parent === subtask.id)).toBe(true);
    const escaped = (await read(recordedSession("escape-slow-tool").path)).items;
    expect(escaped.map(line)).toContain("interrupt");
    const limited = (await read(recordedSession("usage-limit-print").path)).items;
    expect(limited.map(line)).toContain("error: API Error: Request rejected (429) · Scripted 429 error");
  });

  it("comes in batches as it is read; an outcome learnt after its row went out comes as an update", async () => {
    const { batches, items } = await read(recordedSession("several-tools").path, 1);
    expect(batches.length).toBeGreaterThan(3);
    expect(batches.some((b) => b.updates.length > 0)).toBe(true);
    expect(items.filter((i) => i.kind === "tool").every((i) => i.kind === "tool" && i.outcome !== "running")).toBe(true);
    // A command's row handed over while it ran reads, once done, as the command: never "Running: echo hi" beside its ✓.
    expect(items.filter((i) => i.kind === "tool").map(line)).toEqual(["tool Reading notes.txt: done", "tool echo hi: done", "tool Writing created.txt: done"]);
  });
});

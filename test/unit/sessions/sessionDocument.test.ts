/** A session as a person reads it, built by the cards' engine, handed over in batches. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type SessionBatch, type SessionItem, streamSessionDocument } from "../../../src/core/sessions/sessionDocument";
import { RECORDED } from "../../support/recorded";

async function read(file: string, batchItems?: number): Promise<{ items: SessionItem[]; batches: SessionBatch[] }> {
  const batches: SessionBatch[] = [];
  await streamSessionDocument(file, (b) => batches.push(structuredClone(b)), { batchItems });
  const items = batches.flatMap((b) => b.items);
  for (const update of batches.flatMap((b) => b.updates)) {
    const item = items.find((i) => i.kind === "tool" && i.id === update.id);
    if (item && item.kind === "tool") item.outcome = update.outcome;
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
    const { items } = await read(join(RECORDED, "rename-resume", "28fa4ea1-8768-446a-81d7-ec307ac3885a.jsonl"));
    expect(items.map(line)).toEqual([
      "prompt 1: Plan the billing fix",
      "tool Running: echo planned: done",
      "reply: Done with this step.",
      "turnEnd",
      "reply: No response requested.",
      "prompt 2: Continue the billing fix",
      "tool Running: echo planned: done",
      "reply: Done with this step.",
      "turnEnd",
    ]);
  });

  it("nests a sub-agent's calls under its Subtask, and shows an interrupt and a limit error", async () => {
    const sub = (await read(join(RECORDED, "subagent-foreground", (await import("node:fs")).readdirSync(join(RECORDED, "subagent-foreground")).find((n) => n.endsWith(".jsonl"))!))).items;
    const subtask = sub.find((i) => i.kind === "tool" && i.label.startsWith("Subtask"));
    expect(subtask).toBeDefined();
    expect(sub.some((i) => i.kind === "tool" && subtask?.kind === "tool" && i.parent === subtask.id)).toBe(true);
    const escaped = (await read(join(RECORDED, "escape-slow-tool", "586db48e-dd01-4918-a8b3-6644caa31dbd.jsonl"))).items;
    expect(escaped.map(line)).toContain("interrupt");
    const limited = (await read(join(RECORDED, "usage-limit-print", "8e9226cb-5aed-47e6-b30d-a25b177a9da2.jsonl"))).items;
    expect(limited.map(line)).toContain("error: API Error: Request rejected (429) · Scripted 429 error");
  });

  it("comes in batches as it is read; an outcome learnt after its row went out comes as an update", async () => {
    const { batches, items } = await read(join(RECORDED, "several-tools", "afb7657f-2e2b-4759-8dba-73f97e24b00f.jsonl"), 1);
    expect(batches.length).toBeGreaterThan(3);
    expect(batches.some((b) => b.updates.length > 0)).toBe(true);
    expect(items.filter((i) => i.kind === "tool").every((i) => i.kind === "tool" && i.outcome !== "running")).toBe(true);
  });
});

/** The files an agent changed in its session, derived from its transcript. */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionEdits, SessionEditsReader } from "../../src/core/transcript/sessionEdits";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { recordedSession } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();
const start = (id: string, name: string, input: unknown): TranscriptEvent => ({ kind: "toolStart", id, name, input, label: name, action: name, parent: null });
const end = (id: string, outcome: "done" | "error" | "denied" | "interrupted"): TranscriptEvent => ({ kind: "toolEnd", id, outcome, parent: null });

describe("the files an agent changed in its session", () => {
  it("are its edit tools that ended done (Claude Code's and Arcadia's), not denied, failed or interrupted ones, nor reads", () => {
    const edits = new SessionEdits("/ws");
    expect(edits.apply([start("1", "Edit", { file_path: "/ws/a.ts" }), end("1", "done")])).toBe(true);
    edits.apply([start("2", "Write", { file_path: "/ws/b.ts" }), end("2", "denied"), start("3", "MultiEdit", { file_path: "/ws/c.ts" }), end("3", "error")]);
    edits.apply([
      start("4", "NotebookEdit", { notebook_path: "/ws/n.ipynb" }),
      end("4", "interrupted"),
      start("5", "Read", { file_path: "/ws/r.ts" }),
      end("5", "done"),
    ]);
    edits.apply([start("6", "mcp__arcadia__write_file", { path: "docs/new.md", content: "x" }), end("6", "done")]);
    expect(edits.apply([start("7", "Edit", { file_path: "/ws/a.ts" }), end("7", "done")])).toBe(false);
    expect([...edits.files]).toEqual(["/ws/a.ts", "/ws/docs/new.md"]);
  });

  it("from a transcript the real CLI wrote, read incrementally: what each new part adds", async () => {
    const recorded = readFileSync(recordedSession("several-tools").path, "utf8").split("\n");
    const writeAt = recorded.findIndex((l) => l.includes('"name":"Write"'));
    const file = join(tempDir(), "session.jsonl");
    writeFileSync(file, `${recorded.slice(0, writeAt).join("\n")}\n`);
    const reader = new SessionEditsReader(file, "/home/user/project");
    expect(await reader.advance()).toBe(false);
    appendFileSync(file, recorded.slice(writeAt).join("\n"));
    expect(await reader.advance()).toBe(true);
    expect([...reader.files]).toEqual(["/home/user/project/created.txt"]);
    expect(await reader.advance()).toBe(false);
    // Rewritten (a new session in the same file): counted again from its start.
    writeFileSync(file, `${recorded.slice(0, writeAt).join("\n")}\n`);
    expect(await reader.advance()).toBe(true);
    expect([...reader.files]).toEqual([]);
  });
});

/** A session's first real prompt, from transcripts the real CLI recorded. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstPrompt } from "../../src/core/transcript/firstPrompt";
import { recordedSession } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

describe("a session's first prompt", () => {
  it("is the first thing the user typed, past the /clear command and meta records that open a cleared session", async () => {
    expect(await firstPrompt(recordedSession("clear").path)).toBe("First task");
    expect(await firstPrompt(recordedSession("clear", 1).path)).toBe("Second task");
  });

  it("is cut with … past the limit, whitespace collapsed; none in a file without one, a missing file or a folder", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const record = (content: string) =>
      JSON.stringify({ type: "user", message: { role: "user", content }, uuid: "u", timestamp: "2026-11-22T05:36:59.826Z", sessionId: "s" });
    writeFileSync(file, `not json\n${record("Fix   the\nlogin page so that it works on every browser we support today")}\n`);
    expect(await firstPrompt(file, 30)).toBe("Fix the login page so that it…");
    writeFileSync(file, `${JSON.stringify({ type: "mode", mode: "normal" })}\n`);
    expect(await firstPrompt(file)).toBeUndefined();
    expect(await firstPrompt(join(dir, "missing.jsonl"))).toBeUndefined();
    expect(await firstPrompt(dir)).toBeUndefined();
  });
});

/** What a session amounts to (title, prompts, turns, edits), from transcripts the real CLI wrote. */
import { appendFileSync, copyFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionDigest, SessionDigestReader } from "../../../src/core/sessions/sessionDigestReader";
import { glanceSession, GLANCE_BYTES } from "../../../src/core/sessions/sessionGlance";
import { loadScenario, recordedSession, sessionFiles } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const RENAMED = recordedSession("rename-resume").path;

describe("a session's digest", () => {
  it("does not count the CLI's away summary as activity: the session was last active when its last turn ended, minutes before", async () => {
    const file = sessionFiles(loadScenario("away-summary"))[0]!;
    const records = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; subtype?: string; timestamp?: string });
    const lastTurnEnd = Date.parse(records.filter((r) => r.subtype === "turn_duration").at(-1)!.timestamp!);
    const recap = Date.parse(records.find((r) => r.subtype === "away_summary")!.timestamp!);
    expect(recap - lastTurnEnd).toBeGreaterThanOrEqual(30_000);
    expect((await readSessionDigest(file)).lastActiveAt).toBe(lastTurnEnd);
    const glance = glanceSession(file, statSync(file).size);
    expect(glance.lastActiveAt).toBe(lastTurnEnd);
  });

  it("takes the /rename title, counts the turns before and after --resume, and keeps the prompts", async () => {
    const digest = await readSessionDigest(RENAMED);
    expect(digest.title).toBe("Billing fix");
    expect(digest.firstPrompt).toBe("Plan the billing fix");
    expect(digest.prompts).toEqual(["Plan the billing fix", "Continue the billing fix"]);
    expect(digest.turns).toBe(2);
    expect(digest.activeMs).toBeGreaterThan(0);
    expect(digest.lastActiveAt! - digest.startedAt!).toBeGreaterThan(0);
  });

  it("summarises each turn: its prompt, tools and how it ended", async () => {
    const reader = new SessionDigestReader(RENAMED);
    await reader.advance();
    expect(
      reader.current.history.turns.map((t) => ({ prompt: t.prompt, tools: t.tools, ending: t.ending, rows: t.rows.map((r) => `${r.label}: ${r.outcome}`) })),
    ).toEqual([
      { prompt: "Plan the billing fix", tools: 1, ending: "completed", rows: ["Running: echo planned: done"] },
      { prompt: "Continue the billing fix", tools: 1, ending: "completed", rows: ["Running: echo planned: done"] },
    ]);
    const escaped = new SessionDigestReader(recordedSession("escape-slow-tool").path);
    await escaped.advance();
    expect(escaped.current.history.turns.map((t) => t.ending)).toContain("interrupted");
  });

  it("reads only what the file gained on the next advance", async () => {
    const dir = tempDir();
    const file = join(dir, "11111111-1111-4111-8111-111111111111.jsonl");
    copyFileSync(RENAMED, file);
    const reader = new SessionDigestReader(file);
    await reader.advance();
    const before = reader.current.digest();
    appendFileSync(
      file,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "Third prompt" }, timestamp: "2026-11-26T07:00:00.000Z", uuid: "u3" })}\n`,
    );
    expect(await reader.advance()).toBe(true);
    expect(reader.current.digest().turns).toBe(before.turns + 1);
    expect(await reader.advance()).toBe(false);
  });

  it("never throws on a malformed or hostile file: it counts what it can", async () => {
    const dir = tempDir();
    const file = join(dir, "22222222-2222-4222-8222-222222222222.jsonl");
    writeFileSync(
      file,
      `not json\n{"type":"custom-title","customTitle":12}\n{"type":"custom-title"\n[1,2]\n${JSON.stringify({ type: "assistant", message: { id: "m", model: "claude-opus-5-5", usage: { input_tokens: "9", output_tokens: -4 } } })}\n`,
    );
    const digest = await readSessionDigest(file);
    expect(digest.title).toBeUndefined();
    expect(digest.turns).toBe(0);
  });
});

describe("a glance at a session", () => {
  it("finds the first prompt at its head and the latest title at its tail without reading the middle", async () => {
    const dir = tempDir();
    const file = join(dir, "33333333-3333-4333-8333-333333333333.jsonl");
    const record = (content: string, ts: string) =>
      JSON.stringify({ type: "user", message: { role: "user", content }, timestamp: ts, uuid: ts, sessionId: "s", cwd: "/home/user/project" });
    // A middle far larger than both ends together, holding a title the glance must not see.
    const filler = `${JSON.stringify({ type: "assistant", message: { id: "x", model: "claude-opus-5-5", content: [{ type: "text", text: "x".repeat(1000) }] }, timestamp: "2026-11-26T06:10:00.000Z" })}\n`;
    writeFileSync(
      file,
      `${record("Fix the login page", "2026-11-26T06:00:00.000Z")}\n${filler.repeat(60)}{"type":"custom-title","customTitle":"Hidden in the middle"}\n${filler.repeat(120)}{"type":"custom-title","customTitle":"Login fix"}\n${record("Next", "2026-11-26T07:00:00.000Z")}\n`,
    );
    const size = (await import("node:fs")).statSync(file).size;
    expect(size).toBeGreaterThan(3 * GLANCE_BYTES);
    const glance = await glanceSession(file, size);
    expect(glance).toMatchObject({
      firstPrompt: "Fix the login page",
      title: "Login fix",
      cwd: "/home/user/project",
      startedAt: Date.parse("2026-11-26T06:00:00.000Z"),
      lastActiveAt: Date.parse("2026-11-26T07:00:00.000Z"),
    });
  });

  it("finds a first prompt that comes after several kilobytes of other records, and the title before it", async () => {
    const dir = tempDir();
    const file = join(dir, "44444444-4444-4444-8444-444444444444.jsonl");
    const prompt = JSON.stringify({ type: "user", message: { role: "user", content: "Late prompt" }, timestamp: "2026-11-26T06:00:00.000Z", cwd: "/p" });
    for (const before of [6 * 1024, 40 * 1024]) {
      const meta = `${JSON.stringify({ type: "user", isMeta: true, message: { role: "user", content: "m".repeat(before) }, timestamp: "2026-11-26T05:59:00.000Z" })}\n`;
      writeFileSync(file, `{"type":"summary","summary":"Early summary"}\n${meta}${prompt}\n`);
      const glance = glanceSession(file, (await import("node:fs")).statSync(file).size, false);
      expect(glance, `${before} bytes before the prompt`).toMatchObject({
        firstPrompt: "Late prompt",
        title: "Early summary",
        startedAt: Date.parse("2026-11-26T05:59:00.000Z"),
      });
    }
  });

  it("knows a title line at its tail by its first bytes, a byte order mark before them or not, and only a title's type", async () => {
    const dir = tempDir();
    const file = join(dir, "55555555-5555-4555-8555-555555555555.jsonl");
    const prompt = JSON.stringify({ type: "user", message: { role: "user", content: "Tidy the logs" }, timestamp: "2026-11-26T06:00:00.000Z" });
    const tails: [string, string | undefined][] = [
      ['\ufeff{"type":"custom-title","customTitle":"Marked"}', "Marked"],
      ['{"type":"ai-title","aiTitle":"Log tidying"}', "Log tidying"],
      ['{"type":"summaryOfSorts","summary":"Not a title"}', undefined],
      ['{"type":"custom-title"', undefined],
    ];
    for (const [line, title] of tails) {
      writeFileSync(file, `${prompt}\n${line}\n`);
      const glance = glanceSession(file, statSync(file).size, false);
      expect(glance, line).toMatchObject({ firstPrompt: "Tidy the logs" });
      expect(glance.title, line).toBe(title);
    }
  });

  it("reads the first prompt of a file whose last line has no newline yet", () => {
    const file = join(tempDir(), "66666666-6666-4666-8666-666666666666.jsonl");
    writeFileSync(file, JSON.stringify({ type: "user", message: { role: "user", content: "Only line" }, timestamp: "2026-11-26T06:00:00.000Z" }));
    expect(glanceSession(file, statSync(file).size, false)).toMatchObject({ firstPrompt: "Only line", lastActiveAt: Date.parse("2026-11-26T06:00:00.000Z") });
  });

  it("takes the name from the CLI's custom-title.json beside the transcript (what /rename writes)", async () => {
    const glance = await glanceSession(RENAMED, (await import("node:fs")).statSync(RENAMED).size);
    expect(glance).toMatchObject({ title: "Billing fix", firstPrompt: "Plan the billing fix" });
  });
});

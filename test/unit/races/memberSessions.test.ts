/**
 * A race member's turns, time and cost from every session in its worktree's project folder,
 * against what the real CLI itself recorded in those sessions: its `cost-state` totals and its
 * `turn_duration` records, summed. Sessions added later (a /clear, a resume) are counted as they come.
 */
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { FolderSessions } from "../../../src/core/races/folderSessions";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** The CLI's own figures in a transcript: its last cost-state and the sum of its turn_duration records. */
function cliFigures(file: string) {
  type ModelUsage = { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number };
  let cost: { totalCostUSD: number; modelUsage: Record<string, ModelUsage> } | undefined;
  let activeMs = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.includes('"type":"cost-state"')) cost = JSON.parse(line);
    if (line.includes('"subtype":"turn_duration"')) activeMs += (JSON.parse(line) as { durationMs: number }).durationMs;
  }
  const tokens = Object.values(cost!.modelUsage).reduce((n, u) => n + u.inputTokens + u.outputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0);
  return { costUsd: cost!.totalCostUSD, tokens, activeMs };
}

const SESSIONS = [recordedSession("several-tools").path, recordedSession("text-only").path];

describe("a race member's sessions", () => {
  it("sum every session of its folder, as the CLI counted them, and follow sessions added later", async () => {
    const folder = tempDir();
    const sessions = new FolderSessions(folder);
    expect(await sessions.read()).toMatchObject({ sessions: 0, turns: 0, activeMs: 0, costUsd: 0 });
    copyFileSync(SESSIONS[0]!, join(folder, basename(SESSIONS[0]!)));
    const first = cliFigures(SESSIONS[0]!);
    const one = await sessions.read();
    expect(one.sessions).toBe(1);
    expect(one.activeMs).toBe(first.activeMs);
    expect(one.tokens.input + one.tokens.output + one.tokens.cacheRead + one.tokens.cacheWrite).toBe(first.tokens);
    expect(one.costUsd).toBeCloseTo(first.costUsd, 9);

    copyFileSync(SESSIONS[1]!, join(folder, basename(SESSIONS[1]!)));
    const second = cliFigures(SESSIONS[1]!);
    const both = await sessions.read();
    expect(both.sessions).toBe(2);
    expect(both.turns).toBe(2);
    expect(both.activeMs).toBe(first.activeMs + second.activeMs);
    expect(both.tokens.input + both.tokens.output + both.tokens.cacheRead + both.tokens.cacheWrite).toBe(first.tokens + second.tokens);
    expect(both.costUsd).toBeCloseTo(first.costUsd + second.costUsd, 9);
  });

  it("reads a folder that is not there yet as nothing, and one whose file went without failing", async () => {
    const folder = join(tempDir(), "later");
    expect((await new FolderSessions(folder).read()).sessions).toBe(0);
    const real = tempDir();
    const sessions = new FolderSessions(real);
    const copy = join(real, basename(SESSIONS[0]!));
    copyFileSync(SESSIONS[0]!, copy);
    await sessions.read();
    rmSync(copy);
    await expect(sessions.read()).resolves.toBeDefined();
  });
});

/**
 * One reading per transcript: what an agent's card shows of its transcript — the live turn (the
 * engine) and the whole session's figures (tokens, cost, edits, earlier turns) — comes from one
 * reading of each file. Counted on transcripts the real CLI wrote (sub-agent files included), live
 * and restored after a reload: every byte of every file reaches a line reader once, and every
 * record is interpreted once. (A restore's prelude — launch records of background agents still
 * running, cut down and handed to the engine again — is not in these recordings: each restore
 * point here has none.)
 */
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionCards } from "../../src/agents/sessions/sessionCards";
import { SessionFollower } from "../../src/core/engine";
import { LineReader, newLineStats, parseLine, TranscriptInterpreter } from "../../src/core/transcript";
import { loadScenario } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();
afterEach(() => vi.restoreAllMocks());

/** The scenario's session file and its sub-agents' files, copied to a folder of their own. */
function copyOf(scenario: string): { main: string; files: string[] } {
  const dir = tempDir();
  const loaded = loadScenario(scenario);
  cpSync(loaded.dir, dir, { recursive: true });
  const main = join(dir, `${loaded.sessions[0]}.jsonl`);
  const subDir = join(dir, loaded.sessions[0]!, "subagents");
  let subs: string[] = [];
  try {
    subs = readdirSync(subDir)
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => join(subDir, n));
  } catch {
    // no sub-agents
  }
  return { main, files: [main, ...subs] };
}

/** Records a file holds, as the line parser finds them (bookkeeping skipped). */
function recordsIn(path: string): number {
  const stats = newLineStats();
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => parseLine(line, stats) !== undefined).length;
}

describe("one reading per transcript", () => {
  it.each([
    ["subagent-foreground", false],
    ["subagent-foreground", true],
    ["subagent-background-later-turn", false],
    ["subagent-background-later-turn", true],
    ["rename-resume", true],
  ] as const)("%s (restored: %s): each byte read once, each record interpreted once, the card's figures from that reading", async (scenario, restore) => {
    const { main, files } = copyOf(scenario);
    const bytesRead = new Map<string, number>();
    const read = LineReader.prototype.read;
    vi.spyOn(LineReader.prototype, "read").mockImplementation(async function (this: LineReader) {
      const result = await read.call(this);
      const bytes = result.lines.reduce((sum, line) => sum + line.length + 1, 0);
      bytesRead.set(this.path, (bytesRead.get(this.path) ?? 0) + bytes);
      return result;
    });
    const interpreted = vi.spyOn(TranscriptInterpreter.prototype, "handle");

    const cards = new SessionCards(() => undefined);
    const follower = new SessionFollower(main, { restore, pollIntervalMs: 60_000, onRead: (r) => cards.read("a1", r) });
    await follower.start();
    await follower.stop();

    for (const file of files) expect({ file, bytes: bytesRead.get(file) ?? 0 }).toEqual({ file, bytes: statSync(file).size });
    // No record interpreted twice; read live, every record once. (A restore leaves older sub-agent
    // records uninterpreted: only their tokens count, and the engine needs none of them.)
    const times = new Map<string, number>();
    for (const [record] of interpreted.mock.calls) times.set(JSON.stringify(record), (times.get(JSON.stringify(record)) ?? 0) + 1);
    const twice = [...times.values()].filter((n) => n > 1).length;
    expect(twice).toBe(0);
    if (!restore) expect(interpreted.mock.calls.length).toBe(files.reduce((sum, file) => sum + recordsIn(file), 0));
    expect(cards.usage("a1")?.tokens.output).toBeGreaterThan(0);
  });
});

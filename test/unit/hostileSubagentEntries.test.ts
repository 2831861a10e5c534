/**
 * Whatever sits in a session's subagents folder, the session's own file is still read: an entry
 * that is not a readable file is skipped with one line saying so, live and in replay.
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayCommand } from "../../src/cli/replayCommand";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { ManualClock } from "../../src/core/util/clock";
import { noWatch } from "../../src/core/util/fileWatch";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

/** The smallest finished turn: a prompt, then the CLI's turn_duration. */
const FINISHED_TURN = [
  { type: "user", timestamp: "2025-01-01T00:00:00.000Z", message: { role: "user", content: "hi" } },
  { type: "system", subtype: "turn_duration", durationMs: 5, timestamp: "2025-01-01T00:00:01.000Z" },
]
  .map((r) => JSON.stringify(r))
  .join("\n");

/** A session file with a finished turn and a subagents folder made ready by `arrange`. */
function sessionWith(arrange: (subagents: string) => void): string {
  const dir = tempDir();
  const file = join(dir, "s1.jsonl");
  writeFileSync(file, `${FINISHED_TURN}\n`);
  const subagents = join(dir, "s1", "subagents");
  mkdirSync(subagents, { recursive: true });
  arrange(subagents);
  return file;
}

const HOSTILE: Record<string, (subagents: string) => void> = {
  "a folder named agent-x.jsonl": (sub) => mkdirSync(join(sub, "agent-x.jsonl")),
  "a dangling symlink": (sub) => symlinkSync(join(sub, "nowhere.jsonl"), join(sub, "agent-x.jsonl")),
};
// Root reads anything: an unreadable file shows the problem only for other users.
if (process.getuid?.() !== 0) {
  HOSTILE["a file nobody may read"] = (sub) => {
    writeFileSync(join(sub, "agent-x.jsonl"), `${FINISHED_TURN}\n`);
    chmodSync(join(sub, "agent-x.jsonl"), 0o000);
  };
}

/** A follower on `file` (no watcher, manual clock) with its warnings and errors collected. */
function followWithLog(file: string) {
  const warnings: string[] = [];
  const errors: unknown[] = [];
  const follower = new SessionFollower(file, {
    clock: new ManualClock(),
    watch: noWatch,
    onWarning: (message) => warnings.push(message),
    onError: (err) => errors.push(err),
  });
  return { follower, warnings, errors };
}

/** Two passes, as the watcher or the poll would make them, then stop. */
async function pumpTwiceAndStop(follower: SessionFollower): Promise<void> {
  await follower.pump();
  await follower.pump();
  await follower.stop();
}

describe("an unreadable entry in the subagents folder", () => {
  for (const [what, arrange] of Object.entries(HOSTILE)) {
    it(`live: ${what} is skipped with one log line; the card still ends its turn`, async () => {
      const { follower, warnings, errors } = followWithLog(sessionWith(arrange));
      await follower.start();
      await pumpTwiceAndStop(follower);
      expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
      expect(errors).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("agent-x.jsonl");
    });

    it(`replay: ${what} is skipped with one line on stderr, exit 0`, async () => {
      const file = sessionWith(arrange);
      const out: string[] = [];
      const err: string[] = [];
      const code = await replayCommand([file], true, { out: (l) => out.push(l), err: (l) => err.push(l) });
      expect(code).toBe(0);
      expect(JSON.parse(out.at(-1) as string)).toMatchObject({ status: "waiting", lastTurn: "completed" });
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/agent-x\.jsonl/);
    });
  }
});

describe("a sub-agent file that turns unreadable after it was found", () => {
  it("live: replaced by a folder, it is dropped with one log line and the main file goes on", async () => {
    const entry = { path: "" };
    const file = sessionWith((sub) => {
      entry.path = join(sub, "agent-x.jsonl");
      writeFileSync(entry.path, "");
    });
    const finished = `${FINISHED_TURN}\n`;
    writeFileSync(file, "");
    const { follower, warnings, errors } = followWithLog(file);
    await follower.start();
    rmSync(entry.path);
    mkdirSync(entry.path);
    writeFileSync(file, finished);
    await pumpTwiceAndStop(follower);
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(errors).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("agent-x.jsonl");
  });

  it("live: removed after it was found, it is dropped with one log line and the main file goes on", async () => {
    const entry = { path: "" };
    const file = sessionWith((sub) => {
      entry.path = join(sub, "agent-x.jsonl");
      writeFileSync(entry.path, "");
    });
    writeFileSync(file, "");
    const { follower, warnings } = followWithLog(file);
    await follower.start();
    rmSync(entry.path);
    writeFileSync(file, `${FINISHED_TURN}\n`);
    await pumpTwiceAndStop(follower);
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(warnings).toEqual([expect.stringContaining("agent-x.jsonl is gone")]);
  });
});

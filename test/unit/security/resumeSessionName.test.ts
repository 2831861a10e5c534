/**
 * Resume types `claude --resume <id>` into a terminal's shell, and the id comes from a file name in
 * the project folder, which anything that can write there chooses. Only the CLI's own ids (UUIDs)
 * are resumed: a file named like a command lists as a session but never reaches a shell.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentManager } from "../../../src/agents/agentManager";
import { SessionIndex } from "../../../src/core/sessions/sessionIndex";
import { ManualClock } from "../../../src/core/util/clock";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";

const RENAMED_ID = recordedSession("rename-resume").id;

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

describe("resuming a session by its file's name", () => {
  it("refuses a name that is not a session id (no terminal, nothing typed); a real id resumes", async () => {
    const projectDir = join(tempDir(), "-home-user-project");
    mkdirSync(projectDir);
    const source = recordedSession("rename-resume").path;
    const hostile = "x;touch pwned;$(id)";
    copyFileSync(source, join(projectDir, `${hostile}.jsonl`));
    copyFileSync(source, join(projectDir, `${RENAMED_ID}.jsonl`));
    const listed = await new SessionIndex(undefined).list([projectDir]);
    expect(listed.map((e) => e.glance.sessionId).sort()).toEqual([RENAMED_ID, hostile]);

    const host = new FakeTerminalHost();
    const manager = new AgentManager({ terminals: host, store: new MemoryStore(), log: memoryLog(), projectDirFor: () => projectDir, clock: new ManualClock() });
    managers.push(manager);
    const claude = { command: "claude", args: [] };
    for (const id of [hostile, `${RENAMED_ID} --dangerously-skip-permissions`, `../${RENAMED_ID}`, ""]) {
      await expect(manager.open(claude, "/home/user/project", id), id).rejects.toThrow(/not a Claude Code session id/);
    }
    expect(host.terminals).toHaveLength(0);
    await manager.open(claude, "/home/user/project", RENAMED_ID);
    expect(host.terminals.map((t) => t.spec?.args)).toEqual([["--resume", RENAMED_ID]]);
  });
});

/**
 * An agent started in a worktree of its own finds its number and a port offset in its terminal's
 * environment (core/git worktreeEnv), so the dev servers of two worktrees do not collide.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AgentManager } from "../../../src/agents/agent/agentManager";
import { ManualClock } from "../../../src/core/util/clock";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

describe("an agent in a worktree of its own, at launch", () => {
  it("finds its number and a port offset in its terminal's environment, apart from every other agent's; one in the main checkout finds none", async () => {
    const terminals = new FakeTerminalHost();
    const manager = new AgentManager({
      terminals,
      store: new MemoryStore(),
      log: memoryLog(),
      projectDirFor: () => tempDir(),
      clock: new ManualClock(),
    });
    managers.push(manager);
    await manager.open({ command: "claude", args: [] }, "/work/app");
    await manager.open({ command: "claude", args: [] }, "/work/app/.claude/worktrees/fix-login");
    await manager.open({ command: "claude", args: [] }, "/work/app/.claude/worktrees/fix-title/src");
    expect(terminals.terminals.map((t) => t.spec?.env)).toEqual([
      undefined,
      { ARCADIA_WORKTREE_INDEX: "2", ARCADIA_PORT_OFFSET: "20" },
      { ARCADIA_WORKTREE_INDEX: "3", ARCADIA_PORT_OFFSET: "30" },
    ]);
  });
});

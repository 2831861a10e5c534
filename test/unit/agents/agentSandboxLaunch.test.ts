/**
 * A launch's sandbox choice reaches its launch files, and what they say (sandboxed or not) reaches
 * the agent's card and its saved binding, so a card restored after a reload still says it.
 */
import { mkdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AgentManager } from "../../../src/agents/agent/agentManager";
import type { LaunchPlace } from "../../../src/agents/ports";
import { ManualClock } from "../../../src/core/util/clock";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../../support/fakeTerminals";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const managers: AgentManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

function setup(sandboxedWhen: (place: LaunchPlace) => boolean) {
  const projectDir = tempDir();
  mkdirSync(projectDir, { recursive: true });
  const places: LaunchPlace[] = [];
  const store = new MemoryStore();
  let ids = 0;
  const manager = new AgentManager({
    terminals: new FakeTerminalHost(),
    store,
    log: memoryLog(),
    projectDirFor: () => projectDir,
    newSessionId: () => `session-${++ids}`,
    newAgentId: () => `agent-${ids}`,
    clock: new ManualClock(),
    launchExtras: async (agentId, place) => {
      places.push(place);
      const sandbox = sandboxedWhen(place) ? { sandboxed: true } : place.sandbox === "off" ? {} : { sandboxMissing: "needs socat. Install socat" };
      return { args: ["--settings", `/tmp/${agentId}.json`], paths: [], ...sandbox };
    },
  });
  managers.push(manager);
  return { manager, places, store };
}

describe("an agent's sandbox at launch", () => {
  it("the launch files get the agent's folder and the launch's own choice; the card and binding say sandboxed", async () => {
    const { manager, places, store } = setup((place) => place.sandbox !== "off");
    const on = await manager.open({ command: "claude", args: [] }, "/work/app");
    const off = await manager.open({ command: "claude", args: [], sandbox: "off" }, "/work/app/.claude/worktrees/fix");
    expect(places).toEqual([{ cwd: "/work/app" }, { cwd: "/work/app/.claude/worktrees/fix", sandbox: "off" }]);
    expect(manager.view(on.id)?.sandboxed).toBe(true);
    expect(manager.view(off.id)?.sandboxed).toBeUndefined();
    const saved = store.load();
    expect(saved.find((b) => b.agentId === on.id)?.sandboxed).toBe(true);
    expect(saved.find((b) => b.agentId === off.id)?.sandboxed).toBeUndefined();
  });

  it("an agent meant to be sandboxed where the sandbox cannot run: its card says why and what to install", async () => {
    const { manager } = setup(() => false);
    const meant = await manager.open({ command: "claude", args: [] }, "/work/app");
    const off = await manager.open({ command: "claude", args: [], sandbox: "off" }, "/work/app");
    expect(manager.view(meant.id)).toMatchObject({ sandboxMissing: "needs socat. Install socat" });
    expect(manager.view(meant.id)?.sandboxed).toBeUndefined();
    expect(manager.view(off.id)?.sandboxMissing).toBeUndefined();
  });
});

/**
 * A card on the real CLI 2.1.330, bound through its process: the CLI is started by hand
 * in a "terminal" (the rig's `sh` stands for the shell) and gets a card (adoption); its permission
 * prompt shows as "needs permission" from the CLI's own status file; `kill -9` of the CLI ends the
 * turn as interrupted with no tool left running, and the card says claude exited.
 * The agent manager, the process monitor and the transcript follower are the real ones; only the
 * VS Code terminal list is a fake holding the rig's shell pid.
 */
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentManager } from "../../src/agents/agent/agentManager";
import { ClaudeProcessMonitor } from "../../src/core/process/claudeProcessMonitor";
import type { AgentFacts } from "../../src/shared/protocol";
import { createRig, type InteractiveSession, type Rig } from "../rig/claude-rig.js";
import { PERMISSION_PROMPT } from "../rig/interactive.js";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../support/fakeTerminals";
import { realCliAvailable } from "../support/realCli";
import { waitForChange } from "../support/waitFor";
import { agentViews } from "../support/agentViews";

const available = realCliAvailable("cards bound to the real CLI's process");
const SLOW = `python3 -c "import time; time.sleep(120)"`;

describe.skipIf(!available)("a card bound to the real CLI through its process", () => {
  let rig: Rig;
  let session: InteractiveSession;
  let monitor: ClaudeProcessMonitor;
  let manager: AgentManager;
  const host = new FakeTerminalHost();
  const figures: string[] = [];

  const card = (): AgentFacts | undefined => agentViews(manager)[0];
  const until = <T>(probe: () => T | undefined | false, what: string, timeoutMs = 15_000) =>
    waitForChange((cb) => manager.onDidTouch(cb).dispose, probe, timeoutMs, what);

  beforeAll(async () => {
    rig = await createRig({
      script: {
        conversations: [
          { match: "Run the slow one", steps: [{ tools: [{ name: "Bash", input: { command: SLOW, description: "Sleep" } }] }, { text: "Done." }] },
        ],
      },
    });
    session = await rig.startInteractive();
    monitor = new ClaudeProcessMonitor({ configDir: rig.rigHome.configDir });
    manager = new AgentManager({
      terminals: host,
      store: new MemoryStore(),
      log: memoryLog(),
      projectDirFor: () => session.projectDir(),
      processes: monitor,
    });
  });

  afterAll(async () => {
    await manager?.dispose();
    await monitor?.stop();
    await rig?.dispose();
    if (figures.length) console.log(`cards on the real CLI (this machine):\n  ${figures.join("\n  ")}`);
  });

  it("gives a terminal where claude was started by hand a card on its session", async () => {
    host.revive("bash", session.pid);
    await until(() => card(), "the adopted card");
    // Exact from the CLI's status file (it is written without a status for a moment at start-up).
    await until(() => card()?.statusSource === "process" && card()?.status === "waiting", "the idle CLI shown as waiting, from its status file");
  });

  it("shows needs permission while the CLI's prompt waits, from its status file", async () => {
    await session.submit("Run the slow one");
    await session.waitForScreen(PERMISSION_PROMPT);
    const shownAt = performance.now();
    await until(() => card()?.status === "needsYou", "needs permission");
    figures.push(`prompt on screen → card needs permission: ${Math.round(performance.now() - shownAt)} ms`);
    await session.answerPermission("yes");
    const running = await until(() => card()?.status === "active" && card()?.tools.find((t) => t.outcome === "running"), "the approved tool running").catch(
      (err: unknown) => {
        throw new Error(`${String(err)}; card: ${JSON.stringify(card())}; screen: ${session.screen.text().slice(-600)}`);
      },
    );
    expect(running.label).toContain("python3");
  });

  it("kill -9 of the CLI ends the turn as interrupted with no tool left running, and says claude exited", async () => {
    const state = monitor.current(session.pid);
    if (state?.state !== "running") throw new Error(`claude is not running: ${JSON.stringify(state)}`);
    const killedAt = performance.now();
    process.kill(state.pid, "SIGKILL");
    const exited = await until(() => card()?.status === "exited" && card(), "the card to say claude exited");
    figures.push(`kill -9 → card exited: ${Math.round(performance.now() - killedAt)} ms`);
    expect(exited.lastTurn).toBe("interrupted");
    expect(exited.tools.filter((t) => t.outcome === "running")).toEqual([]);
    expect(exited.tools.find((t) => t.label.includes("python3"))?.outcome).toBe("interrupted");
  });
});

/**
 * A race's start on the real CLI 2.1.332, three at once as a race starts them: each claude idle at
 * its prompt (by its status file), the task typed and Enter pressed apart as TerminalHandle.type
 * does. The CLI draws its spinner ("Churning…") as it takes the prompt but writes busy to its status
 * file only once its query starts; the UserPromptSubmit hook and the transcript's user record come
 * later still. Before the fix the cards read "Idle" through that gap (the issue saw ~5 s in a loaded
 * e2e window): here every card must read working from Arcadia's Enter until its status file says
 * busy, then by its status file, and idle once the turn is over. The real AgentManager, process
 * monitor and transcript follower; only VS Code's terminal list is a fake holding the rig's shells.
 * The gap is printed, never asserted.
 */
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentManager } from "../../src/agents/agent/agentManager";
import { ClaudeProcessMonitor } from "../../src/core/process/claudeProcessMonitor";
import type { AgentFacts } from "../../src/shared/protocol";
import { createRig, type InteractiveSession, type Rig } from "../rig/claude-rig.js";
import { BUSY, SUBMIT_PAUSE_MS } from "../rig/interactive.js";
import { agentViews } from "../support/agentViews";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../support/fakeTerminals";
import { realCliAvailable } from "../support/realCli";
import { waitForChange } from "../support/waitFor";

const available = realCliAvailable("a submitted prompt on the real CLI");
const MEMBERS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!available)("a task typed at several real CLIs at once", () => {
  let rig: Rig;
  let sessions: InteractiveSession[];
  let monitor: ClaudeProcessMonitor;
  let manager: AgentManager;
  const host = new FakeTerminalHost();
  const figures: string[] = [];

  beforeAll(async () => {
    rig = await createRig({ script: { conversations: [{ match: "Race task", steps: [{ text: "Done.", delayMs: 3000 }] }] } });
    sessions = await Promise.all(Array.from({ length: MEMBERS }, () => rig.startInteractive()));
    monitor = new ClaudeProcessMonitor({ configDir: rig.rigHome.configDir });
    manager = new AgentManager({ terminals: host, store: new MemoryStore(), log: memoryLog(), projectDirFor: () => rig.projectDir(), processes: monitor });
    for (const s of sessions) host.revive("bash", s.pid);
  });

  afterAll(async () => {
    await manager?.dispose();
    await monitor?.stop();
    await rig?.dispose();
    if (figures.length) console.log(`a task typed at ${MEMBERS} real CLIs at once (this machine):\n  ${figures.join("\n  ")}`);
  });

  const cardOf = (s: InteractiveSession): AgentFacts | undefined => agentViews(manager).find((c) => manager.agentInfo(c.id)?.sessionId === s.sessionId);
  const fileStatus = (s: InteractiveSession) => {
    const state = monitor.current(s.pid);
    return state?.state === "running" ? state.status : undefined;
  };
  const until = <T>(probe: () => T | undefined | false, what: string, timeoutMs = 30_000) =>
    waitForChange((cb) => manager.onDidTouch(cb).dispose, probe, timeoutMs, what);

  it("reads working from Arcadia's Enter on, through the gap before the status file says busy, and idle once the turn is over", async () => {
    await until(() => sessions.every((s) => cardOf(s)?.status === "waiting" && cardOf(s)?.statusSource === "process"), "every claude idle at its prompt");
    const shown: { card: string; file: string | undefined; screenBusy: boolean }[][] = sessions.map(() => []);
    const busyAt: (number | undefined)[] = sessions.map(() => undefined);
    const fileBusyAt: (number | undefined)[] = sessions.map(() => undefined);
    const entered: (number | undefined)[] = sessions.map(() => undefined);
    // What the card said at every moment from the Enter until its status file first said busy.
    const sampler = setInterval(() => {
      sessions.forEach((s, i) => {
        if (entered[i] === undefined || fileBusyAt[i] !== undefined) return;
        const file = fileStatus(s);
        const screenBusy = BUSY.test(s.screen.text());
        if (screenBusy) busyAt[i] ??= performance.now();
        if (file !== "idle") fileBusyAt[i] = performance.now();
        else shown[i]!.push({ card: cardOf(s)?.status ?? "none", file, screenBusy });
      });
    }, 10);
    await Promise.all(
      sessions.map(async (s, i) => {
        const terminal = host.terminals[i]!;
        // As VscodeTerminalHost's TerminalHandle.type: the text, a pause, Enter, then told.
        s.type("Race task: fix the title");
        await sleep(SUBMIT_PAUSE_MS);
        s.pressEnter();
        host.typed(terminal);
        entered[i] = performance.now();
        expect(cardOf(s)?.status, "the card the moment Enter was pressed").toBe("active");
      }),
    );
    await until(() => sessions.every((s) => fileStatus(s) === "busy"), "every status file to say busy");
    clearInterval(sampler);
    const allBusy = performance.now();
    for (const i of sessions.keys()) fileBusyAt[i] ??= allBusy;
    for (const [i, s] of sessions.entries()) {
      const gap = fileBusyAt[i]! - (busyAt[i] ?? fileBusyAt[i]!);
      const spinner = busyAt[i] === undefined ? "not seen before the status file said busy" : `${Math.round(busyAt[i]! - entered[i]!)} ms`;
      figures.push(
        `member ${i + 1}: Enter → spinner ${spinner}; Enter → status file busy ${Math.round(fileBusyAt[i]! - entered[i]!)} ms (spinner → busy ${Math.round(gap)} ms)`,
      );
      const idleWhileAsked = shown[i]!.filter((x) => x.card !== "active");
      expect(idleWhileAsked, `member ${i + 1}'s card before its status file said busy`).toEqual([]);
      expect(shown[i]!.length, "samples taken before the status file said busy").toBeGreaterThan(0);
      expect(cardOf(s)).toMatchObject({ status: "active", statusSource: "process" });
    }
    await until(() => sessions.every((s) => cardOf(s)?.status === "waiting" && cardOf(s)?.lastTurn === "completed"), "every turn over, idle again");
    for (const s of sessions) expect(cardOf(s)?.statusSource).toBe("process");
  });
});

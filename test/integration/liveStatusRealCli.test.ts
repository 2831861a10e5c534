/**
 * The process monitor on the real CLI 2.1.330 in its loopback namespace: the rig's `sh` stands
 * for a terminal's shell (the CLI is its child, as under a VS Code terminal). The rig unshares
 * only the network, not pids, so the monitor in this process sees the CLI's real pid.
 * Latencies are printed, never asserted — except the "needs permission within 300 ms of
 * the prompt showing".
 */
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaudeProcessState, ClaudeProcessMonitor } from "../../src/core/process/claudeProcessMonitor";
import { statusFilePath } from "../../src/core/process/statusFile";
import { createRig, type InteractiveSession, type Rig } from "../rig/claude-rig.js";
import { PERMISSION_PROMPT } from "../rig/interactive.js";
import { isTurnEnd } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("live status of the real CLI");
const PROMPTS = 8;
const bash = (command: string) => ({ name: "Bash", input: { command, description: `Run ${command}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Figures printed at the end (ms). */
const figures: Record<string, number[]> = {};
const note = (what: string, ms: number) => (figures[what] ??= []).push(Math.round(ms * 10) / 10);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

describe.skipIf(!available)("the live status of the real CLI, followed by its terminal's shell pid", () => {
  let rig: Rig;
  let monitor: ClaudeProcessMonitor;
  let session: InteractiveSession;
  const reports: { state: ClaudeProcessState; previous: ClaudeProcessState | undefined; at: number; wall: number }[] = [];
  let waiters: (() => void)[] = [];

  /** Resolves with the first report from index `from` on that satisfies `pred`. */
  async function report(pred: (s: ClaudeProcessState) => boolean, what: string, from = 0, timeoutMs = 15_000) {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const hit = reports.slice(from).find((r) => pred(r.state));
      if (hit) return hit;
      if (performance.now() > deadline) throw new Error(`no report of ${what} within ${timeoutMs} ms; reports: ${JSON.stringify(reports.map((r) => r.state))}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  beforeAll(async () => {
    const steps = Array.from({ length: PROMPTS }, (_, i) => ({ tools: [bash(`touch marker-${i}.txt`)] }));
    rig = await createRig({ script: { conversations: [{ match: "Touch the markers", steps: [...steps, { text: "All markers touched." }] }] } });
    monitor = new ClaudeProcessMonitor({ configDir: rig.rigHome.configDir, onError: (e) => console.log(`monitor: ${String(e)}`) });
    session = await rig.startInteractive();
    monitor.track(session.pid, (state, previous) => {
      reports.push({ state, previous, at: performance.now(), wall: Date.now() });
      for (const w of waiters.splice(0)) w();
    });
  });

  afterAll(async () => {
    await monitor?.stop();
    await rig?.dispose();
    const rows = Object.entries(figures).map(([what, ms]) => {
      const p = ms.length > 1 ? `  (p50 ${percentile(ms, 50)}, p99 ${percentile(ms, 99)})` : "";
      return `  ${what}: ${ms.join(", ")} ms${p}`;
    });
    if (rows.length) console.log(`live status of the real CLI (this machine):\n${rows.join("\n")}`);
    waiters = [];
  });

  it("finds the claude under the shell and reports it idle with its session id", async () => {
    const idle = await report((s) => s.state === "running" && s.status === "idle", "running idle");
    expect(idle.state).toMatchObject({ state: "running", sessionId: session.sessionId, cwd: rig.workspace });
    const pid = idle.state.state === "running" ? idle.state.pid : -1;
    expect(pid).not.toBe(session.pid);
    expect(session.processes().some((p) => p.pid === pid && p.cmdline.includes("claude --session-id"))).toBe(true);
  });

  it(`reports waiting for every permission prompt, and busy again once it is approved (${PROMPTS} prompts)`, async () => {
    // `busy` comes first, but may already be `waiting` when the file is read: not waited for.
    const start = reports.length;
    await session.submit("Touch the markers");
    // Reports are looked at from just after the previous answer's report: the next `waiting` can
    // arrive (~90 ms after `busy`) before this loop comes round again.
    let cursor = start;
    for (let i = 0; i < PROMPTS; i++) {
      const waiting = report((s) => s.state === "running" && s.status === "waiting", `waiting #${i + 1}`, cursor);
      await session.waitForScreen(PERMISSION_PROMPT, 30_000);
      const shownAt = performance.now();
      const r = await waiting;
      const state = r.state as Extract<ClaudeProcessState, { state: "running" }>;
      expect(state.waitingFor).toBe("permission prompt");
      // Negative: the card knew before the terminal drew the dialog.
      note("prompt on screen → monitor reports waiting (signed)", r.at - shownAt);
      if (state.statusUpdatedAt !== undefined) note("CLI writes waiting → monitor reports it", r.wall - state.statusUpdatedAt);
      expect(r.at - shownAt).toBeLessThan(300);
      const answeredAt = performance.now();
      await session.answerPermission("yes");
      const after = await report((s) => s.state === "running" && s.status !== "waiting", `the answer to prompt #${i + 1}`, reports.indexOf(r) + 1);
      cursor = reports.indexOf(after) + 1;
      expect(after.state.state === "running" && ["busy", "idle"].includes(after.state.status ?? "")).toBe(true);
      note("approve (incl. the rig's 150 ms pause) → monitor leaves waiting", after.at - answeredAt);
      // The next prompt must be a new dialog, not the old one still drawn.
      for (let t = 0; t < 100 && PERMISSION_PROMPT.test(session.screen.text()); t++) await sleep(20);
    }
    await session.waitForRecords(isTurnEnd, { timeoutMs: 30_000, what: "the turn's end" });
    const from = reports.length;
    await report((s) => s.state === "running" && s.status === "idle", "idle after the turn", Math.max(0, from - 1));
    const sequence = reports.map((r) => (r.state.state === "running" ? r.state.status : "none"));
    expect(sequence.filter((s) => s === "waiting")).toHaveLength(PROMPTS);
  });

  it("reports the new session id after /clear", async () => {
    await session.waitForIdle();
    const from = reports.length;
    await session.clear();
    const newId = await session.waitForClearedSession();
    expect(newId).not.toBe(session.sessionId);
    const r = await report((s) => s.state === "running" && s.sessionId === newId, "the new session id", from);
    expect(r.state).toMatchObject({ state: "running", sessionId: newId });
  });

  it("reports the exit when the CLI is killed with SIGKILL (its status file is left behind)", async () => {
    const last = reports.at(-1)?.state;
    if (last?.state !== "running") throw new Error("not running before the kill");
    const from = reports.length;
    const killedAt = performance.now();
    process.kill(last.pid, "SIGKILL");
    const r = await report((s) => s.state === "none", "none after kill -9", from, 5000);
    note("kill -9 → monitor reports none", r.at - killedAt);
    expect(r.previous).toMatchObject({ state: "running", pid: last.pid });
    expect(existsSync(statusFilePath(rig.rigHome.configDir, last.pid))).toBe(true);
  });
});

/**
 * Fifty agents at work, as one window's extension host runs them: the real agent manager (fake
 * terminals, the real process monitor on the CLIs' status files, a follower per agent), the soak's
 * window parts (loopback server with the real MCP tools and hook route, tracker, approvals,
 * permission broker, hook feed; the "panel" answering every prompt), the real card store and live
 * board, and the panel's card feed (vscode/panel/cardFeed.ts: what would be posted to the page).
 * The fifty CLIs (bench/fifty/clis.ts) run in a child process at a model's pace: what is measured
 * here is Arcadia's alone.
 *
 * Prints the host's CPU share averaged over the working spell, its heap (peak of 1 s samples), the
 * heap per agent, the panel's messages (at most one a frame), and the host's CPU and card
 * compositions per turn (what a turn costs, whatever pace a loaded machine let the CLIs keep). `--record <file>` writes every
 * panel message with its time (JSON lines) for the panel's own bench in Chromium (bench/fiftyPanel.ts).
 *
 * `node --expose-gc --import tsx bench/fifty.ts [--seconds 60] [--long] [--think 1500] [--agents 50] [--warm 5] [--record file] [--profile file.cpuprofile]`
 * (`--long`, or ARCADIA_BENCH_LONG=1: ten minutes). `npm run bench` runs the short one in a process of its own.
 */
import { fork } from "node:child_process";
import { Session } from "node:inspector";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { followAgentChanges } from "../src/agents/agent/agentChanges";
import { AgentManager } from "../src/agents/agent/agentManager";
import { CardStore } from "../src/agents/cards/cardStore";
import { LiveBoard } from "../src/agents/cards/liveBoard";
import { followHookTools } from "../src/agents/hooks/hookToolsSync";
import { ClaudeProcessMonitor } from "../src/core/process/claudeProcessMonitor";
import { sharedCommandHost } from "../src/core/tools/commandHost";
import { ManualClock } from "../src/core/util/clock";
import type { ExtensionMessage } from "../src/shared/protocol";
import { followCards } from "../src/vscode/panel/cardFeed";
import { FakeTerminalHost, MemoryStore, memoryLog } from "../test/support/fakeTerminals";
import { type FiftyAnswer, type FiftyCommand, FIFTY_CLIS_ENTRY } from "./fifty/clis";
import { pidsOf, sessionIdOf } from "./soak/simAgent";
import { FakeProcessTable, SoakWindow } from "./soak/window";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;
const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The CLIs' process: one command at a time, each answered when done. */
function startClis() {
  const child = fork(FIFTY_CLIS_ENTRY, [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  let last: FiftyAnswer = { done: "start", failures: 0, turns: 0 };
  const send = (command: FiftyCommand) =>
    new Promise<FiftyAnswer>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the bench's CLIs exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (answer: FiftyAnswer) => {
        child.off("exit", onExit);
        last = answer;
        resolve(answer);
      });
      child.send(command);
    });
  return { send, abort: (subject: string) => child.send({ type: "abort", subject } satisfies FiftyCommand), last: () => last };
}

/** A process's CPU so far in clock ticks (Linux's /proc, 100 a second), or undefined where there is none. */
function cpuTicksOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** `--profile <file>`: a CPU profile of the working spell alone (not the setup, not the warm-up), for DevTools. */
async function profileSpell(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (file === undefined) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  await post("Profiler.enable");
  await post("Profiler.start");
  return {
    async stop() {
      const { profile } = (await post("Profiler.stop")) as { profile: object };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

export async function fiftyAgents(row: Row): Promise<void> {
  const agentCount = option("agents", 50);
  const long = process.argv.includes("--long") || process.env.ARCADIA_BENCH_LONG === "1";
  const seconds = long ? 600 : option("seconds", 60);
  const thinkMs = option("think", 1500);
  const recordAt = process.argv.indexOf("--record");
  const recordFile = recordAt >= 0 ? process.argv[recordAt + 1] : undefined;

  const root = mkdtempSync(join(tmpdir(), "arcadia-fifty-"));
  const configDir = join(root, "config");
  mkdirSync(join(configDir, "sessions"), { recursive: true });
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), "# The fifty agents' workspace\n".repeat(50));
  const projectDir = join(configDir, "projects", "-fifty");
  mkdirSync(projectDir, { recursive: true });

  // The fake terminals' shells are pids 4000…; each one's claude is the simulated CLI's pid.
  const table = new FakeProcessTable();
  for (let i = 0; i < agentCount; i++) {
    table.add(4000 + i, 1, "bash");
    table.add(pidsOf(i).claudePid, 4000 + i, "claude");
  }
  const clis = startClis();
  await clis.send({ type: "start", configDir, workspace, projectDir, agents: agentCount });

  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const window = await SoakWindow.open(
    {
      root,
      configDir,
      workspace,
      projectDirs: [],
      indexFile: join(root, "index.json"),
      clock: new ManualClock(Date.now()),
      table,
      abortClientCall: clis.abort,
    },
    [],
    { restore: false },
  );
  const monitor = new ClaudeProcessMonitor({ configDir, table, platform: "linux", isAlive: (pid) => table.procs.has(pid) });
  let sessions = 0;
  let ids = 0;
  const manager = new AgentManager({
    terminals: new FakeTerminalHost(),
    store: new MemoryStore(),
    log: memoryLog(),
    projectDirFor: () => projectDir,
    newSessionId: () => sessionIdOf(sessions++, 0),
    newAgentId: () => `agent-${++ids}`,
    processes: monitor,
  });
  const { tracker, approvals, broker: permissions, hookFeed: hooks } = window;
  const board = new LiveBoard({ calls: tracker, approvals, permissions, hooks });
  const cards = new CardStore({ agents: manager, board, hooks, onError: (m) => console.error(m) });
  const followers = [
    followHookTools({
      feed: hooks,
      onDidReadTranscript: manager.onDidReadTranscript,
      onDidChangeCard: cards.onDidChangeCard,
      onDidRemoveCard: cards.onDidRemoveCard,
      sessionOf: (id) => manager.agentInfo(id)?.sessionId,
    }),
    followAgentChanges({
      onDidChange: manager.onDidChange,
      onDidChangeCard: cards.onDidChangeCard,
      tracker,
      permissions,
      closeCommandsTerminal: () => undefined,
    }),
  ];
  // Each panel message's time and card count; the messages themselves only for `--record` (kept,
  // they were the heap's growth: the bench's, not Arcadia's).
  const messages: { at: number; cards: number }[] = [];
  const recorded: { at: number; message: ExtensionMessage }[] = [];
  const start = performance.now();
  const feed = followCards(cards, (message) => {
    const at = performance.now() - start;
    messages.push({ at, cards: message.type === "cardsChanged" ? message.changed.length : 0 });
    if (recordFile) recorded.push({ at, message });
  });
  for (let i = 0; i < agentCount; i++) await manager.open({ command: "claude", args: [] }, workspace);
  await clis.send({ type: "connect", url: window.server.url, tokens: Object.fromEntries(manager.agentIds().map((id) => [id, window.server.tokenFor(id)])) });
  console.log(
    `fifty: ${agentCount} agents working for ${seconds} s (a step every ~${thinkMs} ms each: 3 tools with their hooks, a permission prompt, an MCP call a turn)`,
  );

  // A first short spell, not measured: what a window does once (loading the MCP server's code and
  // the tools' on the first call, the JIT warming up) is no agent's steady cost. The real extension
  // loads the MCP server's code right after activating, before any agent works.
  const warmSeconds = option("warm", 5);
  const warmed = await clis.send({ type: "work", seconds: warmSeconds, thinkMs });
  const turnsBefore = warmed.turns;

  // Heap every second, CPU over the whole working spell.
  const heaps: number[] = [];
  const sampler = setInterval(() => heaps.push(process.memoryUsage().heapUsed), 1000);
  const profile = await profileSpell(process.argv.includes("--profile") ? process.argv[process.argv.indexOf("--profile") + 1] : undefined);
  const helperBefore = cpuTicksOf(sharedCommandHost().helperPid);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const messagesBefore = messages.length;
  const compositionsBefore = cards.compositions;
  const working = clis.send({ type: "work", seconds, thinkMs });
  await working;
  const cpu = process.cpuUsage(cpuBefore);
  const helperAfter = cpuTicksOf(sharedCommandHost().helperPid);
  await profile.stop();
  const compositions = cards.compositions - compositionsBefore;
  const wall = (performance.now() - wallBefore) / 1000;
  clearInterval(sampler);
  const answer = clis.last();
  const turns = answer.turns - turnsBefore;
  const cpuShare = ((cpu.user + cpu.system) / 1e6 / wall) * 100;
  const heapPeak = Math.max(...heaps);
  // The recording goes to its file and out of the heap before the heap is measured.
  if (recordFile) writeFileSync(recordFile, recorded.splice(0).map((m) => JSON.stringify(m)).join("\n") + "\n");
  gc?.();
  await sleep(200);
  const heapAfter = process.memoryUsage().heapUsed;

  // Panel messages: how many a second at most, and the shortest gap (the feed's frame).
  const sent = messages.slice(messagesBefore);
  const perSecond = new Map<number, number>();
  for (const m of sent) perSecond.set(Math.floor(m.at / 1000), (perSecond.get(Math.floor(m.at / 1000)) ?? 0) + 1);
  const busiest = Math.max(0, ...perSecond.values());
  const cardsSent = sent.reduce((n, m) => n + m.cards, 0);

  row(`${agentCount} agents: host CPU, averaged over ${Math.round(wall)} s`, `${cpuShare.toFixed(1)} %`, "≤ 10 % of a core", cpuShare <= 10);
  // The helper that starts the commands (core/tools/commandHost.ts) is a process of its own: its share is printed beside the host's, not hidden.
  // Started during the spell (no command before it): all its CPU is the spell's.
  if (helperAfter !== undefined)
    console.log(
      `${"  the command helper's CPU (its own process)".padEnd(44)} ${`${(((helperAfter - (helperBefore ?? 0)) / 100 / wall) * 100).toFixed(1)} %`.padStart(14)}`,
    );
  row(`${agentCount} agents: heap (peak of 1 s samples)`, `${(heapPeak / MB).toFixed(0)} MB`, "≤ 200 MB", heapPeak <= 200 * MB);
  console.log(
    `${`  heap per agent (after GC, over the ${(heapBefore / MB).toFixed(0)} MB before)`.padEnd(44)} ${`${((heapAfter - heapBefore) / agentCount / 1024).toFixed(0)} KB`.padStart(14)}`,
  );
  row(`${agentCount} agents: panel messages in the busiest second`, `${busiest}`, "≤ 60 (one a frame)", busiest <= 60);
  console.log(
    `${"  panel messages, cards in them".padEnd(44)} ${`${sent.length}, ${cardsSent}`.padStart(14)}   (${(cardsSent / Math.max(1, sent.length)).toFixed(1)} cards a message)`,
  );
  console.log(`${"  turns done, MCP calls failed unasked".padEnd(44)} ${`${turns}, ${answer.failures}`.padStart(14)}`);
  // The host's work for one turn of one agent: comparable between runs on a loaded machine, where the CLIs keep a slower pace.
  const perTurn = (n: number) => (turns > 0 ? n / turns : 0).toFixed(1);
  console.log(
    `${"  per turn: host CPU ms, card compositions".padEnd(44)} ${`${perTurn((cpu.user + cpu.system) / 1e3)}, ${perTurn(compositions)}`.padStart(14)}`,
  );

  feed.dispose();
  for (const f of followers) f.dispose();
  cards.dispose();
  await manager.dispose();
  await monitor.stop();
  await window.close();
  await clis.send({ type: "close" });
  rmSync(root, { recursive: true, force: true });
}

if (require.main === module) {
  const row: Row = (name, value, target, ok) =>
    console.log(`${name.padEnd(44)} ${value.padStart(14)}   target ${target}${ok === undefined ? "" : ok ? "  ✓ within target" : "  ✗ MISSES target"}`);
  fiftyAgents(row).then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

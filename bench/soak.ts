/**
 * The soak: 20 simulated agents working for 8 simulated hours, compressed into a few minutes, on
 * the real core parts (bench/soak/window.ts: followers on real files, the loopback server with the
 * real tools, the SDK client, the approval queue, the hook route, the process monitor on status
 * files, the project-folder watchers, the Sessions index). Every hour each agent runs its turns
 * (bench/soak/simAgent.ts), then /clears, the Sessions view lists and indexes every session, and
 * the window reloads. At each hour's end (before the reload: the window holding its hour, the index
 * holding every session) it counts heap, RSS, handles, fds, listeners and timers (soak/census.ts).
 * The CLIs run in a child process (soak/clis.ts): what is counted here is Arcadia's alone.
 *
 * What may grow: the index's sessions (20 new ones an hour: the retained history), bounded below.
 * What may not: listeners, timers, handles, and what the window holds per call or per tool.
 *
 * `node --expose-gc --import tsx bench/soak.ts [--hours 8] [--turns 12] [--detail]` (turns per
 * agent per simulated hour; --detail: handles by type and which listeners changed, each hour).
 * `npm run bench` runs it in a process of its own (~1.5 min here).
 */
import { type Census, census, listenersByKind } from "./soak/census";
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../src/core/util/clock";
import { type CliAnswer, type CliCommand, CLIS_ENTRY } from "./soak/clis";
import { pidsOf, sessionIdOf } from "./soak/simAgent";
import { FakeProcessTable, type SoakEnv, SoakWindow, type WindowAgent } from "./soak/window";

const AGENTS = 20;
const PROJECTS = 4;
const HOUR_MS = 3_600_000;
/**
 * The quiet spell before each count: idle keep-alive connections close after Node's 5 s on the
 * server (4 s in fetch), so what is counted is what stays, not which connections a pool kept.
 */
const QUIET_MS = 6000;
/** Heap growth per hour that nothing but noise explains, beyond the index's (see the bound below). */
const HEAP_SLACK_MB_PER_HOUR = 0.5;
/** The index in memory per byte of its file (objects, not text): measured ~2–3×, bounded here. */
const INDEX_MEMORY_PER_FILE_BYTE = 4;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The window's view of an agent: its pids and current session, as the CLIs' process has them. */
class Agent implements WindowAgent {
  readonly shellPid: number;
  sessionId: string;
  private sessions = 0;
  constructor(
    readonly id: string,
    private readonly index: number,
    private readonly projectDir: string,
  ) {
    this.shellPid = pidsOf(index).shellPid;
    this.sessionId = sessionIdOf(index, this.sessions++);
  }
  transcript(): string {
    return join(this.projectDir, `${this.sessionId}.jsonl`);
  }
  cleared(): void {
    this.sessionId = sessionIdOf(this.index, this.sessions++);
  }
}

/** The CLIs' process: one command at a time, each answered when done. */
function startClis() {
  const child = fork(CLIS_ENTRY, [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  let failures = 0;
  const send = (command: CliCommand) =>
    new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the soak's CLIs exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (answer: CliAnswer) => {
        child.off("exit", onExit);
        failures = answer.failures;
        resolve();
      });
      child.send(command);
    });
  return { send, abort: (subject: string) => child.send({ type: "abort", subject } satisfies CliCommand), failures: () => failures };
}

interface Hour {
  label: string;
  census: Census;
  holdings: Record<string, number>;
  indexBytes: number;
  sessions: number;
  seconds: number;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
let lastKinds = new Map<string, number>();

function printHour(h: Hour): void {
  const c = h.census;
  if (process.argv.includes("--detail")) {
    console.log("   ", JSON.stringify(c.handles));
    const kinds = listenersByKind();
    const changed = [...kinds].filter(([k, v]) => lastKinds.get(k) !== v).map(([k, v]) => `${k} ${lastKinds.get(k) ?? 0}→${v}`);
    console.log("    listeners changed:", changed.join(", "));
    lastKinds = kinds;
  }
  const held = Object.entries(h.holdings)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  console.log(
    `${h.label.padEnd(14)} heap ${fmt(c.heapMb).padStart(6)} MB  RSS ${fmt(c.rssMb, 0).padStart(4)} MB  handles ${String(c.handleCount).padStart(3)}  fds ${String(c.fds).padStart(3)}  ` +
      `listeners ${String(c.listeners).padStart(4)} (${c.nodeListeners} node, ${c.targetListeners} signals, ${c.arcadiaSubscriptions} Arcadia)  timers ${c.timers} (${c.activeTimers} ref'd)  ` +
      `index ${h.sessions} sessions ${fmt(h.indexBytes / 1024, 0)} KB  [${held}]  ${fmt(h.seconds, 0)} s`,
  );
}

async function main(): Promise<void> {
  const hours = option("hours", 8);
  const turns = option("turns", 12);
  const root = mkdtempSync(join(tmpdir(), "arcadia-soak-"));
  const configDir = join(root, "config");
  mkdirSync(join(configDir, "sessions"), { recursive: true });
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), "# The soak's workspace\n".repeat(50));
  const projectDirs = Array.from({ length: PROJECTS }, (_, i) => join(configDir, "projects", `-soak-project-${i}`));
  for (const dir of projectDirs) mkdirSync(dir, { recursive: true });
  const clis = startClis();
  const table = new FakeProcessTable();
  const env: SoakEnv = { root, configDir, workspace, projectDirs, indexFile: join(root, "storage", "sessions-index.json"), clock: new ManualClock(Date.now()), table, abortClientCall: clis.abort };
  const agents = Array.from({ length: AGENTS }, (_, i) => new Agent(`agent-${i + 1}`, i, projectDirs[i % PROJECTS] as string));
  for (let i = 0; i < AGENTS; i++) {
    const { shellPid, claudePid } = pidsOf(i);
    table.add(shellPid, 1, "bash");
    table.add(claudePid, shellPid, "claude");
  }
  await clis.send({ type: "start", configDir, workspace, projectDirs, agents: AGENTS, now: env.clock.now() });

  console.log(`soak: ${AGENTS} agents × ${hours} simulated hours, ${turns} turns per agent per hour (3 tools with their hooks, a permission prompt, an MCP call), a /clear, a sessions listing and a reload every hour`);
  const started = performance.now();
  let window = await SoakWindow.open(env, agents, { restore: false });
  const { port, windowSecret } = window.server;
  await clis.send({ type: "connect", url: window.server.url, tokens: Object.fromEntries(agents.map((a) => [a.id, window.server.tokenFor(a.id)])) });

  const log: Hour[] = [];
  let hourStarted = performance.now();
  const take = async (label: string, sessions: number) => {
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const indexBytes = (() => {
      try {
        return statSync(env.indexFile).size;
      } catch {
        return 0;
      }
    })();
    const hour: Hour = { label, census: await census(), holdings: window.holdings(), indexBytes, sessions, seconds: (performance.now() - hourStarted) / 1000 };
    log.push(hour);
    printHour(hour);
    hourStarted = performance.now();
  };
  await take("start", 0);

  for (let hour = 1; hour <= hours; hour++) {
    for (let t = 0; t < turns; t++) {
      await clis.send({ type: "turn", n: hour * turns + t, now: env.clock.now() });
      env.clock.advance(HOUR_MS / turns);
    }
    await clis.send({ type: "clear", now: env.clock.now() });
    for (const agent of agents) {
      agent.cleared();
      await window.follow(agent, false);
    }
    const sessions = await window.listSessions();
    await take(`hour ${hour}${hour === hours ? " (end)" : hour === Math.ceil(hours / 2) ? " (mid)" : ""}`, sessions);
    await window.close();
    window = await SoakWindow.open(env, agents, { port, secret: windowSecret, restore: true });
  }
  await window.close();
  await clis.send({ type: "close" });
  const failures = clis.failures();
  rmSync(root, { recursive: true, force: true });
  report(log, hours, failures, (performance.now() - started) / 1000);
}

/** Start, middle and end side by side, growth per hour after the first, and the verdicts. */
function report(log: Hour[], hours: number, failures: number, seconds: number): void {
  // Medians of the first three hours and of the last three, then per hour between their middles:
  // a count one hour caught mid-change (a connection closing) is not growth, a steady leak is.
  const hoursLog = log.slice(1);
  const k = Math.min(3, Math.floor(hoursLog.length / 2)) || 1;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const span = Math.max(1, hoursLog.length - k);
  const per = (f: (h: Hour) => number) => (median(hoursLog.slice(-k).map(f)) - median(hoursLog.slice(0, k).map(f))) / span;
  const heap = per((h) => h.census.heapMb);
  const indexMb = per((h) => h.indexBytes) / 1024 / 1024;
  const heapBound = HEAP_SLACK_MB_PER_HOUR + INDEX_MEMORY_PER_FILE_BYTE * indexMb;
  const grows = (name: string, f: (h: Hour) => number) => {
    const growth = per(f);
    const ok = growth <= 0;
    console.log(`  ${name.padEnd(34)} ${fmt(growth, 2).padStart(8)} per hour   target 0${ok ? "  ✓ within target" : "  ✗ MISSES target"}`);
    return ok;
  };
  console.log("");
  console.log(`growth per simulated hour (the median of the last ${k} hours against the first ${k}'s):`);
  const heapOk = heap <= heapBound;
  console.log(
    `  ${"heap".padEnd(34)} ${fmt(heap, 2).padStart(8)} MB/h   bound ${fmt(heapBound, 2)} MB/h = ${HEAP_SLACK_MB_PER_HOUR} + ${INDEX_MEMORY_PER_FILE_BYTE} × the index's growth (${fmt(indexMb * 1024, 0)} KB/h on disk: 20 sessions/h)${heapOk ? "  ✓ within target" : "  ✗ MISSES target"}`,
  );
  console.log(`  ${"RSS".padEnd(34)} ${fmt(per((h) => h.census.rssMb), 2).padStart(8)} MB/h   (printed: the allocator keeps freed pages)`);
  // Counts that must not grow at all fail the bench (a leak is not noise); the heap, the handles
  // and the descriptors move with GC and connections closing: printed with their verdicts only.
  grows("handles", (h) => h.census.handleCount);
  grows("file descriptors", (h) => h.census.fds);
  const ok = [
    grows("listeners", (h) => h.census.listeners),
    grows("timers (unref'd included)", (h) => h.census.timers),
    grows("calls, approvals, prompts, hook rows", (h) => h.holdings.calls! + h.holdings.approvals! + h.holdings.permissions! + h.holdings.hookTools!),
  ].every(Boolean);
  console.log(`  ${"MCP calls that failed unasked".padEnd(34)} ${String(failures).padStart(8)}          target 0${failures === 0 ? "  ✓ within target" : "  ✗ MISSES target"}`);
  console.log(`soak took ${fmt(seconds, 0)} s`);
  if (!ok || failures > 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

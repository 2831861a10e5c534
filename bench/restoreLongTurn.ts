/**
 * Restore where the answer is far back: a 200 MB session whose last turn is 20 MB, with a
 * foreground sub-agent running since that turn's start and a background sub-agent launched in the
 * session's first turn, still running. Built from lines the real CLI recorded
 * (test/fixtures/recorded: subagent-background, subagent-foreground, several-tools), with fresh
 * tool ids per copy.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deriveToolCalls } from "../src/core/agent/toolCalls";
import { SessionFollower } from "../src/core/engine/sessionFollower";
import type { TranscriptEvent } from "../src/core/transcript/events";
import { ManualClock } from "../src/core/util/clock";
import { noWatch } from "../src/core/util/fileWatch";
import { loadScenario, sessionFiles } from "../test/support/recorded";
import { percentile } from "./percentile";

const MB = 1024 * 1024;
type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

interface Recorded {
  main: string[];
  subagent: string[];
  agentToolId: string;
}

function recorded(name: string): Recorded {
  const scenario = loadScenario(name);
  const main = sessionFiles(scenario)[0] as string;
  const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
  const subFile = scenario.files.find((f) => f.endsWith(".jsonl") && f.includes("/subagents/"));
  if (!subFile) return { main: lines(main), subagent: [], agentToolId: "" };
  const meta = JSON.parse(readFileSync(join(scenario.dir, subFile.replace(/\.jsonl$/, ".meta.json")), "utf8")) as { toolUseId: string };
  return { main: lines(main), subagent: lines(join(scenario.dir, subFile)), agentToolId: meta.toolUseId };
}

const isPrompt = (l: string) => l.includes('"type":"user"') && l.includes('"promptId"') && !l.includes('"tool_use_id"') && !l.includes('"isMeta":true');
const index = (lines: string[], test: (l: string) => boolean) => lines.findIndex(test);
const lastIndex = (lines: string[], test: (l: string) => boolean) => lines.length - 1 - [...lines].reverse().findIndex(test);

/** Every turn end says one background agent is pending, as the CLI writes while one runs. */
const withOnePending = (line: string) =>
  line.includes('"subtype":"turn_duration"') ? line.replace(/("messageCount":\d+,)/, '$1"pendingBackgroundAgentCount":1,') : line;

function freshIds(text: string, copy: number): string {
  return text.replace(/toolu_[A-Za-z0-9]+/g, (id) => `${id}_${copy}`);
}

interface LongTurnFile {
  path: string;
  bytes: number;
  lastTurnBytes: number;
  foregroundId: string;
  backgroundId: string;
  firstCallOfTurn: string;
}

export async function writeLongTurnSession(dir: string, totalBytes: number, lastTurnBytes: number): Promise<LongTurnFile> {
  const bg = recorded("subagent-background");
  const fg = recorded("subagent-foreground");
  const tools = recorded("several-tools");
  const sessionId = "9d1c0a52-1b6e-4c47-9a57-2a4f2f6b0c11";
  const path = join(dir, `${sessionId}.jsonl`);
  const out = createWriteStream(path);
  let written = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((r) => out.once("drain", () => r()));
  };

  // The first turn launches the background agent (up to and including its turn end).
  const bgEnd = index(bg.main, (l) => l.includes('"subtype":"turn_duration"'));
  await write(`${bg.main.slice(0, bgEnd + 1).join("\n")}\n`);
  // Finished turns, each one saying the background agent is still pending.
  const turn = `${tools.main.map(withOnePending).join("\n")}\n`;
  const turnBytes = Buffer.byteLength(turn);
  for (let copy = 0; written + turnBytes < totalBytes - lastTurnBytes; copy++) await write(freshIds(turn, copy));
  // The last turn: its prompt and the foreground Agent call, then calls of a long turn, still running.
  const lastTurnAt = written;
  const fgAgent = index(fg.main, (l) => l.includes(`"id":"${fg.agentToolId}"`));
  await write(`${fg.main.slice(index(fg.main, isPrompt), fgAgent + 1).join("\n")}\n`);
  const toolsPrompt = index(tools.main, isPrompt);
  const lastResult = lastIndex(tools.main, (l) => l.includes('"tool_use_id"'));
  const calls = `${tools.main.slice(toolsPrompt + 1, lastResult + 1).join("\n")}\n`;
  const firstCallOfTurn = `${/toolu_[A-Za-z0-9]+/.exec(calls.slice(calls.indexOf('"type":"tool_use"')))?.[0]}_t0`;
  for (let copy = 0; written - lastTurnAt < lastTurnBytes; copy++) await write(freshIds(calls, copy).replace(/(toolu_[A-Za-z0-9]+_)(\d+)/g, "$1t$2"));
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));

  // Both sub-agents are mid-way: their files cut before their last tool's result.
  const subDir = join(dir, sessionId, "subagents");
  mkdirSync(subDir, { recursive: true });
  for (const [agentId, rec] of [["abg0000000000000b", bg], ["afg0000000000000f", fg]] as const) {
    const lastResultAt = lastIndex(rec.subagent, (l) => l.includes('"tool_use_id"'));
    writeFileSync(join(subDir, `agent-${agentId}.jsonl`), `${rec.subagent.slice(0, lastResultAt).join("\n")}\n`);
    writeFileSync(join(subDir, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: "general-purpose", toolUseId: rec.agentToolId }));
  }
  return { path, bytes: written, lastTurnBytes: written - lastTurnAt, foregroundId: fg.agentToolId, backgroundId: bg.agentToolId, firstCallOfTurn };
}

async function restoreOnce(file: string): Promise<{ ms: number; follower: SessionFollower; events: TranscriptEvent[] }> {
  const follower = new SessionFollower(file, { clock: new ManualClock(), watch: noWatch, restore: true });
  const events: TranscriptEvent[] = [];
  follower.onDidChange(({ events: e }) => events.push(...e));
  const start = process.hrtime.bigint();
  await follower.start();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  await follower.stop();
  return { ms, follower, events };
}

export async function restoreLongTurnBenchmarks(row: Row, dir: string): Promise<void> {
  const file = await writeLongTurnSession(dir, 200 * MB, 20 * MB);
  const label = `${(file.bytes / MB).toFixed(0)} MB, last turn ${(file.lastTurnBytes / MB).toFixed(0)} MB`;
  const samples: number[] = [];
  let correct = true;
  for (let i = 0; i < 3; i++) {
    const { ms, follower, events } = await restoreOnce(file.path);
    samples.push(ms);
    const active = follower.state.activeTools;
    const rows = deriveToolCalls(events).map((c) => c.id);
    correct &&=
      follower.state.status === "active" &&
      active.get(file.foregroundId)?.background === false &&
      active.get(file.backgroundId)?.background === true &&
      [...active].some((t) => t.parent === file.foregroundId) && // the foreground sub-agent's running tool
      rows.includes(file.firstCallOfTurn);
  }
  samples.sort((a, b) => a - b);
  const median = percentile(samples, 50);
  row(`restore correct (${label})`, correct ? "yes" : "NO", "yes: both sub-agents + the turn's rows", correct);
  row(`restore time (${label})`, `${median.toFixed(0)} ms`, "as fast as it can, async", undefined);
}

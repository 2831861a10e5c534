/**
 * The Sessions view on a big history: 1,000 sessions totalling 2 GB, and 5,000 smaller ones
 * (2.4 GB: heavy users have thousands). For each: the list's first paint (the index's `list()`:
 * stat every file, take unchanged ones from the index, glance at the ends of the rest) with no
 * index yet and with one; reading every session whole into the index (in the background), with
 * the longest event-loop stall meanwhile and what it was (bench/stalls.ts). Then opening a 100 MB
 * session in the reader (first batch, whole). The files are fresh, so the page cache holds them: a
 * cold disk adds its seek time to the no-index figure.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { streamSessionDocument } from "../src/core/sessions/sessionDocument";
import { SessionIndex } from "../src/core/sessions/sessionIndex";
import { sessionRow } from "../src/agents/sessions/sessionRows";
import { generateTranscript } from "./generateTranscript";
import { watchStalls } from "./stalls";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;
const MB = 1024 * 1024;
const LIST_TARGET_MS = 300;
const STALL_TARGET_MS = 50;

const prompt = (i: number) => `${JSON.stringify({ type: "user", message: { role: "user", content: `Session ${i}: fix issue ${i * 7}` }, uuid: `u-${i}`, timestamp: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), sessionId: `s${i}`, cwd: "/home/user/project" })}\n`;

const note = (name: string, text: string) => console.log(`${name.padEnd(44)} ${text}`);

/** `count` sessions of about `bodyBytes` each: list, fill, list again. */
async function sessionSet(row: Row, dir: string, count: number, bodyBytes: number): Promise<void> {
  const project = join(dir, "sessions", "-home-user-project");
  mkdirSync(project, { recursive: true });
  const bodyFile = join(dir, "session-body.jsonl");
  await generateTranscript(bodyFile, bodyBytes);
  const body = readFileSync(bodyFile);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const title = i % 10 === 0 ? `{"type":"custom-title","customTitle":"Named session ${i}","sessionId":"${id}"}\n` : "";
    const file = join(project, `${id}.jsonl`);
    writeFileSync(file, Buffer.concat([Buffer.from(prompt(i)), body, Buffer.from(title)]));
    total += statSync(file).size;
  }
  const label = `${count.toLocaleString("en")} / ${(total / 1024 / MB).toFixed(1)} GB`;
  console.log(`generated ${count} sessions, ${(total / 1024 / MB).toFixed(2)} GB, in ${project}`);

  const indexFile = join(dir, "sessions-index.json");
  const cold = new SessionIndex(indexFile);
  const rowContext = { followedBy: () => undefined, worktreeOf: () => undefined, now: Date.now() };
  // What the view's first paint waits for: the list, its rows, and the message carrying them.
  const firstPaint = async (index: SessionIndex) => {
    const entries = await index.list([project]);
    return { entries, message: JSON.stringify({ type: "sessionsList", sessions: entries.map((e) => sessionRow(e, rowContext)) }) };
  };
  let stalls = watchStalls();
  let start = performance.now();
  const { entries: listed, message } = await firstPaint(cold);
  const coldMs = performance.now() - start;
  const coldStall = stalls();
  row(`sessions list, ${label}, no index yet`, `${coldMs.toFixed(0)} ms`, `≤ ${LIST_TARGET_MS} ms`, coldMs <= LIST_TARGET_MS);
  note("  (glanced: first prompt, title, times)", `${listed.length} sessions, a ${(message.length / 1024).toFixed(0)} KB message; longest event-loop stall ${coldStall.maxMs.toFixed(1)} ms`);

  stalls = watchStalls();
  start = performance.now();
  await cold.fill(listed, () => undefined);
  const fillMs = performance.now() - start;
  const fill = stalls();
  row("  read whole into the index (background)", `${(fillMs / 1000).toFixed(1)} s`, "—", undefined);
  row("  longest event-loop stall meanwhile", `${fill.maxMs.toFixed(1)} ms`, `≤ ${STALL_TARGET_MS} ms`, fill.maxMs <= STALL_TARGET_MS);
  note("    what it was", `${fill.cause}; ${fill.fullGcs} full GCs during the fill`);
  note("  index file", `${(statSync(indexFile).size / MB).toFixed(1)} MB`);

  start = performance.now();
  const warm = (await firstPaint(new SessionIndex(indexFile))).entries;
  const warmMs = performance.now() - start;
  row(`sessions list, ${label}, from the index`, `${warmMs.toFixed(0)} ms`, `≤ ${LIST_TARGET_MS} ms`, warmMs <= LIST_TARGET_MS && warm.every((e) => e.digest !== undefined));
  rmSync(join(dir, "sessions"), { recursive: true, force: true });
  rmSync(indexFile);
  rmSync(bodyFile);
}

export async function sessionBenchmarks(row: Row, dir: string): Promise<void> {
  await sessionSet(row, dir, 1000, 2 * MB);
  console.log("");
  await sessionSet(row, dir, 5000, 0.4 * MB);
  console.log("");

  const big = join(dir, "reader-100mb.jsonl");
  const bytes = await generateTranscript(big, 100 * MB);
  const stalls = watchStalls();
  const start = performance.now();
  let firstBatchMs = 0;
  let items = 0;
  await streamSessionDocument(big, (batch) => {
    if (items === 0) firstBatchMs = performance.now() - start;
    items += batch.items.length;
  });
  const wholeMs = performance.now() - start;
  const stall = stalls();
  row(`open a ${(bytes / MB).toFixed(0)} MB session: first batch`, `${firstBatchMs.toFixed(0)} ms`, "≤ 100 ms", firstBatchMs <= 100);
  row(`  all ${items.toLocaleString("en")} items`, `${wholeMs.toFixed(0)} ms`, "< 1,000 ms", wholeMs < 1000);
  note("  longest event-loop stall meanwhile", `${stall.maxMs.toFixed(1)} ms: ${stall.cause}`);
  rmSync(big);
}

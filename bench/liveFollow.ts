/**
 * Live follow under file-system faults: how long after the last byte the card is right,
 * for a line finished by a second write 20 ms later, a line written in small pieces, a transcript
 * rewritten in place or deleted and created again with longer content, and a deletion. A follower
 * as the extension runs one (real watcher, 1 s poll, real timers). The same cases are checked for
 * correctness, against replay, in test/unit/liveFollow.test.ts.
 */
import { appendFileSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentState } from "../src/core/agent/agentState";
import { SessionFollower } from "../src/core/engine/sessionFollower";
import { ManualClock, systemClock } from "../src/core/util/clock";
import { loadScenario, sessionFiles } from "../test/support/recorded";
import { percentile } from "./percentile";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

const TARGET_MS = 50;
const SAMPLES = 20;
/** Longer than the follower's trailing looks (65 ms): each sample starts from a quiet follower. */
const QUIET_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const text = (lines: string[]) => `${lines.join("\n")}\n`;
function linesOf(scenario: string): string[] {
  return readFileSync(sessionFiles(loadScenario(scenario))[0] as string, "utf8").split("\n").filter(Boolean);
}

/** A sample that never came right within this counts as missed (the poll would not help it). */
const GIVE_UP_MS = 3000;

/** Resolves with the time at which `probe` first holds for the follower's state (Infinity: never). */
function when(follower: SessionFollower, probe: (s: AgentState) => boolean): Promise<number> {
  if (probe(follower.state)) return Promise.resolve(performance.now());
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(Number.POSITIVE_INFINITY);
    }, GIVE_UP_MS);
    const sub = follower.onDidChange(({ state }) => {
      if (probe(state)) {
        sub.dispose();
        clearTimeout(timer);
        resolve(performance.now());
      }
    });
  });
}

async function withFollower(file: string, fn: (f: SessionFollower) => Promise<number[]>): Promise<number[]> {
  const follower = new SessionFollower(file, { restore: false, clock: new ManualClock(), pollClock: systemClock });
  await follower.start();
  try {
    return await fn(follower);
  } finally {
    await follower.stop();
  }
}

function report(row: Row, name: string, samples: number[]): void {
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  const max = samples[samples.length - 1] as number;
  const shown = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : `missed (${GIVE_UP_MS / 1000} s)`);
  row(`live: ${name} p50`, shown(p50), `≤ ${TARGET_MS} ms`, p50 <= TARGET_MS);
  row(`live: ${name} max of ${samples.length}`, shown(max), `≤ ${TARGET_MS} ms`, max <= TARGET_MS);
}

export async function liveFollowBenchmarks(row: Row, dir: string): Promise<void> {
  const several = linesOf("several-tools");
  /** A tool_use line with its id made unique per sample, so each sample waits for its own tool. */
  const toolLine = (i: number) => `${(several[20] as string).replace(/toolu_[A-Za-z0-9]+/, `toolu_bench_${i}`)}\n`;
  const hasTool = (i: number) => (s: AgentState) => s.activeTools.list().some((t) => t.id === `toolu_bench_${i}`);

  const split = join(dir, "split.jsonl");
  writeFileSync(split, text(several.slice(0, 20)));
  report(
    row,
    "line in 2 writes 20 ms apart",
    await withFollower(split, async (follower) => {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        await sleep(QUIET_MS);
        const line = toolLine(i);
        const seen = when(follower, hasTool(i));
        appendFileSync(split, line.slice(0, -10));
        await sleep(20);
        const lastByte = performance.now();
        appendFileSync(split, line.slice(-10));
        samples.push((await seen) - lastByte);
      }
      return samples;
    }),
  );

  const pieces = join(dir, "pieces.jsonl");
  writeFileSync(pieces, text(several.slice(0, 20)));
  report(
    row,
    "line in 8 pieces 30 ms apart",
    await withFollower(pieces, async (follower) => {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES / 2; i++) {
        await sleep(QUIET_MS);
        const line = toolLine(i);
        const seen = when(follower, hasTool(i));
        const size = Math.ceil(line.length / 8);
        let lastByte = 0;
        for (let at = 0; at < line.length; at += size) {
          if (at > 0) await sleep(30);
          lastByte = performance.now();
          appendFileSync(pieces, line.slice(at, at + size));
        }
        samples.push((await seen) - lastByte);
      }
      return samples;
    }),
  );

  // A finished turn, then another session running three tools that is longer than it.
  const finished = text(linesOf("text-only").slice(0, 21));
  const running = text([...several.slice(0, 23), several[32] as string]);
  const isFinished = (s: AgentState) => s.status === "waiting" && s.activeTools.size === 0;
  const isRunning = (s: AgentState) => s.status === "active" && s.activeTools.size === 3;
  for (const [name, rewrite] of [
    ["rewrite in place, longer", (file: string) => writeFileSync(file, running)],
    ["unlink + re-create, longer", (file: string) => (unlinkSync(file), writeFileSync(file, running))],
  ] as const) {
    const file = join(dir, "rewrite.jsonl");
    writeFileSync(file, finished);
    report(
      row,
      name,
      await withFollower(file, async (follower) => {
        const samples: number[] = [];
        for (let i = 0; i < SAMPLES / 2; i++) {
          writeFileSync(file, finished); // shorter: a plain truncation, not measured
          await when(follower, isFinished);
          await sleep(QUIET_MS);
          const seen = when(follower, isRunning);
          const lastByte = performance.now();
          rewrite(file);
          samples.push((await seen) - lastByte);
        }
        return samples;
      }),
    );
  }

  const gone = join(dir, "gone.jsonl");
  writeFileSync(gone, running);
  report(
    row,
    "deletion → card resets",
    await withFollower(gone, async (follower) => {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES / 2; i++) {
        writeFileSync(gone, running);
        await when(follower, isRunning);
        await sleep(QUIET_MS);
        const seen = when(follower, (s) => s.status === "starting");
        const at = performance.now();
        unlinkSync(gone);
        samples.push((await seen) - at);
      }
      return samples;
    }),
  );
}

/**
 * Builds a large transcript out of turns the real CLI recorded (test/fixtures/recorded), repeated
 * with fresh tool ids and uuids per copy so that nothing is de-duplicated away.
 */
import { createWriteStream } from "node:fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadScenario, sessionFiles } from "../test/support/recorded";

const SOURCES = ["several-tools", "escape-slow-tool", "permission-deny-then-approve", "mcp-two-calls", "text-only"];

function recordedTurns(): string[] {
  return SOURCES.map((name) => readFileSync(sessionFiles(loadScenario(name))[0] as string, "utf8"));
}

/** Writes about `targetBytes` of transcript to `path`; returns the bytes written. */
export async function generateTranscript(path: string, targetBytes: number): Promise<number> {
  const turns = recordedTurns();
  const out = createWriteStream(path);
  let written = 0;
  for (let copy = 0; written < targetBytes; copy++) {
    const turn = turns[copy % turns.length] as string;
    // Unique ids per copy: tool ids, record uuids and message ids all end in hex/alnum runs.
    const text = turn.replace(/toolu_[A-Za-z0-9]+/g, (id) => `${id}_${copy}`);
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return written;
}

export function benchDir(): string {
  return join(process.env.ARCADIA_BENCH_DIR ?? "/tmp", "arcadia-bench");
}

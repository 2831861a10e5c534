/**
 * Access to the scenarios recorded from the real CLI (test/fixtures/recorded/<scenario>/), and a
 * way to cut them at a checkpoint: the number of lines each file had when the recorder paused.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

export const RECORDED = resolve(__dirname, "../fixtures/recorded");

export interface Checkpoint {
  name: string;
  atMs: number;
  /** When it was, by the wall clock (ms since the epoch; recordings made since observing scenarios). */
  at?: number;
  /** Lines of each file (path relative to the scenario folder) at that moment. */
  lines: Record<string, number>;
}

export interface RecordedScenario {
  scenario: string;
  mode: "interactive" | "print";
  cliVersion: string;
  /** Every recorded file, sub-agent files and their meta files included. */
  files: string[];
  /** Session ids in order (before and after /clear); each is `<id>.jsonl` in the folder. */
  sessions: string[];
  checkpoints: Checkpoint[];
  dir: string;
}

export function recordedScenarioNames(): string[] {
  if (!existsSync(RECORDED)) return [];
  return readdirSync(RECORDED)
    .filter((d) => existsSync(join(RECORDED, d, "scenario.json")))
    .sort();
}

export function loadScenario(name: string): RecordedScenario {
  const dir = join(RECORDED, name);
  const meta = JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8"));
  return { ...meta, dir };
}

/** A recorded session found by its scenario, never by its id (a new recording makes new ids): its id and file. */
export function recordedSession(scenario: string, index = 0): { id: string; path: string } {
  const s = loadScenario(scenario);
  const id = s.sessions[index];
  if (!id) throw new Error(`${scenario} has no session #${index} (it has ${s.sessions.length})`);
  return { id, path: join(s.dir, `${id}.jsonl`) };
}

export function sessionFiles(s: RecordedScenario): string[] {
  return s.sessions.map((id) => join(s.dir, `${id}.jsonl`));
}

function allJsonl(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}

const cuts: string[] = [];

/** Removes the copies cutAtCheckpoint made (call from afterAll). */
export function removeCuts(): void {
  for (const dir of cuts.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A copy of the scenario as it was at a checkpoint: every file cut to its line count then (files
 * not listed did not exist yet). Returns the session files, in order, that existed.
 */
export function cutAtCheckpoint(s: RecordedScenario, checkpoint: string): string[] {
  const cp = s.checkpoints.find((c) => c.name === checkpoint);
  if (!cp) throw new Error(`${s.scenario} has no checkpoint "${checkpoint}" (has: ${s.checkpoints.map((c) => c.name).join(", ")})`);
  const out = mkdtempSync(join(tmpdir(), `arcadia-cut-${s.scenario}-`));
  cuts.push(out);
  cpSync(s.dir, out, { recursive: true });
  for (const file of allJsonl(out)) {
    const rel = relative(out, file);
    const keep = cp.lines[rel] ?? 0;
    const lines = readFileSync(file, "utf8").split("\n").slice(0, keep);
    writeFileSync(file, lines.length ? `${lines.join("\n")}\n` : "");
  }
  return s.sessions
    .map((id) => `${id}.jsonl`)
    .filter((f) => (cp.lines[f] ?? 0) > 0)
    .map((f) => join(out, f));
}

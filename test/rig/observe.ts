// What a recording keeps besides the transcript: every hook the CLI fires (a command hook per
// event appends its input, stamped with the time it ran) and a timeline of what the CLI's status
// file said and how many lines each transcript file had, sampled every few ms. Together they let
// a test replay a session as Arcadia saw it live: transcript, hooks and process state in order.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Rig } from "./claude-rig.js";

/** Every hook event 2.1.330 fires in these scenarios: Arcadia's own and the ones that tell when a turn starts and stops. */
export const OBSERVED_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "PreCompact",
  "PostCompact",
] as const;

/** `<root>/runs/hooks.log`: one line per hook, `<ms since the epoch> <its input as JSON>`. */
export const hookLogOf = (rig: Pick<Rig, "root">) => join(rig.root, "runs", "hooks.log");

/**
 * A `--settings` file whose command hooks append each input to the hook log. Synchronous command
 * hooks that print nothing (no decision): the CLI waits a few ms for each, and shows its own prompts.
 */
export function hookCaptureArgs(rig: Pick<Rig, "root">): string[] {
  const log = hookLogOf(rig);
  writeFileSync(log, "");
  // One printf per input: lines of hooks that run side by side do not interleave.
  const command = `sh -c 'input=$(cat); printf "%s %s\\n" "$(date +%s%3N)" "$input" >> "$0"' ${JSON.stringify(log)}`;
  const hooks = Object.fromEntries(OBSERVED_HOOK_EVENTS.map((event) => [event, [{ hooks: [{ type: "command", command }] }]]));
  const file = join(rig.root, "runs", "hook-capture-settings.json");
  writeFileSync(file, JSON.stringify({ hooks }, null, 2));
  return ["--settings", file];
}

/**
 * Makes the CLI's away summary come `delayMs` after a turn ends (at least 30 s; 3 min by default)
 * while its terminal is unfocused: the delay is a feature flag (`tengu_sedge_lantern_config`) that
 * the CLI reads from the flags cached in `~/.claude.json` only when told to with telemetry off
 * (CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF=1, which the scenario sets).
 */
export function awaySummaryAfter(rig: Pick<Rig, "rigHome"> | { home: string }, delayMs: number): void {
  const file = join("rigHome" in rig ? rig.rigHome.home : rig.home, ".claude.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  config.cachedGrowthBookFeatures = { tengu_sedge_lantern_config: { delayMs } };
  config.cachedGrowthBookFeaturesAt = Date.now();
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
}

export interface TimelineEntry {
  at: number;
  /** The status file's fields Arcadia reads, when they changed. */
  status?: { status?: string; waitingFor?: string; statusUpdatedAt?: number; sessionId?: string } | null;
  /** Complete lines per transcript file (relative to the project folder), when they changed. */
  lines?: Record<string, number>;
}

/** Samples the status file and the transcripts' line counts until stopped. */
export function sampleTimeline(sessionsDir: string, projectDir: string, everyMs = 10): { stop(): TimelineEntry[] } {
  const entries: TimelineEntry[] = [];
  let lastStatus = "";
  let lastLines = "";
  const sample = () => {
    const at = Date.now();
    const entry: TimelineEntry = { at };
    const status = readStatus(sessionsDir);
    const statusJson = JSON.stringify(status);
    if (status !== undefined && statusJson !== lastStatus) {
      entry.status = status;
      lastStatus = statusJson;
    }
    const lines = lineCounts(projectDir);
    const linesJson = JSON.stringify(lines);
    if (linesJson !== lastLines) {
      entry.lines = lines;
      lastLines = linesJson;
    }
    if (entry.status !== undefined || entry.lines !== undefined) entries.push(entry);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return entries;
    },
  };
}

/** undefined: caught half-written (the CLI rewrites it in place); the next sample reads it whole. */
function readStatus(dir: string): TimelineEntry["status"] | undefined {
  const file = existsSync(dir) ? readdirSync(dir).find((n) => /^\d+\.json$/.test(n)) : undefined;
  if (!file) return null;
  try {
    const s = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
    const pick: NonNullable<TimelineEntry["status"]> = {};
    if (typeof s.status === "string") pick.status = s.status;
    if (typeof s.waitingFor === "string") pick.waitingFor = s.waitingFor;
    if (typeof s.statusUpdatedAt === "number") pick.statusUpdatedAt = s.statusUpdatedAt;
    if (typeof s.sessionId === "string") pick.sessionId = s.sessionId;
    return pick;
  } catch {
    return undefined;
  }
}

function lineCounts(projectDir: string): Record<string, number> {
  if (!existsSync(projectDir)) return {};
  const counts: Record<string, number> = {};
  for (const rel of readdirSync(projectDir, { recursive: true, encoding: "utf8" })) {
    if (!rel.endsWith(".jsonl")) continue;
    const text = readFileSync(join(projectDir, rel), "utf8");
    counts[relative(".", rel)] = text.length === 0 ? 0 : text.split("\n").length - 1;
  }
  return counts;
}

/** The hook log as `{at, input}` lines (a line being written is skipped). */
export function readHookLog(file: string): { at: number; input: Record<string, unknown> }[] {
  if (!existsSync(file)) return [];
  const out: { at: number; input: Record<string, unknown> }[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const space = line.indexOf(" ");
    if (space <= 0) continue;
    try {
      out.push({ at: Number(line.slice(0, space)), input: JSON.parse(line.slice(space + 1)) as Record<string, unknown> });
    } catch {
      // Not whole yet.
    }
  }
  return out;
}

// Records scenario transcripts from the real CLI into test/fixtures/recorded/<scenario>/.
//   npx tsx test/rig/record-fixtures.ts [scenario...] [--jobs 2] [--times N] [--dry-run]
// Each folder gets the transcript files in the CLI's own layout (<session-id>.jsonl,
// <session-id>/subagents/agent-*.jsonl + .meta.json), machine paths scrubbed, and a
// scenario.json with the file order, the CLI version and, per checkpoint, how many complete lines
// each file had at that moment (so replay tests can stop exactly where the live test asserts).
// A scenario that observes (`observe: true`) also gets hooks.ndjson (every hook input, with the time
// it ran) and timeline.ndjson (the status file and the files' line counts, sampled every 10 ms).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CLAUDE_CODE_VERSION, claudeBinary, claudeInstallDir } from "./cli-binary.js";
import { namespaceSupport } from "./namespace.js";
import { runScenario, scenarioByName, scenarios, type Scenario } from "./scenarios.js";
import { scrubPairs, scrubText } from "./scrub.js";
import { readRecords } from "./transcripts.js";
import { hookLogOf, readHookLog, sampleTimeline, type TimelineEntry } from "./observe.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const outRoot = join(repoRoot, "test", "fixtures", "recorded");

/** All regular files under `dir`, as paths relative to it. */
function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, base) : [relative(base, p)];
  });
}

function completeLines(path: string): number {
  const text = readFileSync(path, "utf8");
  return text.length === 0 ? 0 : text.split("\n").length - 1;
}

function firstTimestamp(path: string): string {
  const r = readRecords(path).find((x) => typeof x.timestamp === "string");
  return (r?.timestamp as string | undefined) ?? "";
}

/** Top-level transcripts oldest first (for /clear: old then new), each followed by its
 * sub-agent files, then anything else. */
function orderFiles(projectDir: string, files: string[]): string[] {
  const top = files
    .filter((f) => !f.includes("/") && f.endsWith(".jsonl"))
    .sort((a, b) => firstTimestamp(join(projectDir, a)).localeCompare(firstTimestamp(join(projectDir, b))));
  const ordered: string[] = [];
  for (const t of top) {
    const id = t.slice(0, -".jsonl".length);
    ordered.push(t, ...files.filter((f) => f.startsWith(`${id}/`)).sort());
  }
  return [...ordered, ...files.filter((f) => !ordered.includes(f)).sort()];
}

interface RecordResult {
  name: string;
  ok: boolean;
  durationMs: number;
  error?: string;
}

async function recordOne(scenario: Scenario, dryRun: boolean): Promise<RecordResult> {
  const checkpoints: { name: string; atMs: number; at: number; lines: Record<string, number> }[] = [];
  let projectDir = "";
  let timeline: { stop(): TimelineEntry[] } | undefined;
  const started = Date.now();
  try {
    const run = await runScenario(scenario, {
      keepRig: true,
      onRig: (rig) => {
        projectDir = rig.projectDir();
        if (scenario.observe) timeline = sampleTimeline(rig.sessionsDir(), projectDir);
      },
      checkpoint: async (name) => {
        const files = walk(projectDir).filter((f) => f.endsWith(".jsonl"));
        checkpoints.push({
          name,
          atMs: Date.now() - started,
          // The wall clock too: an observing scenario's hooks and timeline are stamped with it.
          at: Date.now(),
          lines: Object.fromEntries(files.map((f) => [f, completeLines(join(projectDir, f))])),
        });
      },
    });
    const observed = timeline?.stop();
    try {
      if (!dryRun) writeFixture(scenario, run.rig, projectDir, checkpoints, run.durationMs, observed);
    } finally {
      await run.dispose();
    }
    return { name: scenario.name, ok: true, durationMs: run.durationMs };
  } catch (err) {
    timeline?.stop();
    return { name: scenario.name, ok: false, durationMs: Date.now() - started, error: String(err instanceof Error ? err.stack : err) };
  }
}

function writeFixture(
  scenario: Scenario,
  rig: { root: string; home: string; workspace: string; requests(): { path: string; reply: string; status: number }[] },
  projectDir: string,
  checkpoints: { name: string; lines: Record<string, number> }[],
  durationMs: number,
  timeline?: TimelineEntry[],
): void {
  const pairs = scrubPairs({
    root: rig.root,
    home: rig.home,
    workspace: rig.workspace,
    extra: { [claudeInstallDir()]: "/opt/claude-code", [repoRoot]: "/repo" },
  });
  const files = orderFiles(projectDir, walk(projectDir));
  const outDir = join(outRoot, scenario.name);
  rmSync(outDir, { recursive: true, force: true });
  for (const f of files) {
    const target = join(outDir, scrubText(f, pairs));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, scrubText(readFileSync(join(projectDir, f), "utf8"), pairs));
  }
  const transcripts = files.filter((f) => !f.includes("/") && f.endsWith(".jsonl"));
  const meta = {
    scenario: scenario.name,
    description: scenario.description,
    mode: scenario.mode,
    cliVersion: CLAUDE_CODE_VERSION,
    // Order matters: for /clear the old session's file comes first, then the new one.
    files,
    sessions: transcripts.map((f) => f.slice(0, -".jsonl".length)),
    subagents: files.filter((f) => f.includes("/subagents/")),
    checkpoints,
    durationMs,
    modelRequests: rig.requests().map((r) => ({ path: r.path, reply: r.reply, status: r.status })),
    placeholders: { home: "/home/user", workspace: "/home/user/project", slug: "-home-user-project" },
  };
  writeFileSync(join(outDir, "scenario.json"), scrubText(JSON.stringify(meta, null, 2), pairs) + "\n");
  if (timeline) {
    const jsonl = (rows: unknown[]) => rows.map((r) => scrubText(JSON.stringify(r), pairs)).join("\n") + "\n";
    writeFileSync(join(outDir, "hooks.ndjson"), jsonl(readHookLog(hookLogOf(rig))));
    writeFileSync(join(outDir, "timeline.ndjson"), jsonl(timeline));
  }
}

function parseArgs(argv: string[]) {
  const names: string[] = [];
  let jobs = 1;
  let times = 1;
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--jobs" || a === "-j")
      jobs = Math.max(1, Math.min(2, Number(argv[++i]))); // 2 cores: at most 2 CLIs
    else if (a === "--times") times = Math.max(1, Number(argv[++i]));
    else if (a === "--dry-run") dryRun = true;
    else names.push(a);
  }
  return { names, jobs, times, dryRun };
}

async function main(): Promise<void> {
  const { names, jobs, times, dryRun } = parseArgs(process.argv.slice(2));
  const ns = namespaceSupport();
  if (!ns.ok) {
    console.error(`cannot record: ${ns.reason}`);
    process.exit(2);
  }
  claudeBinary(); // install/verify once, before parallel runs
  const selected = names.length ? names.map(scenarioByName) : scenarios;
  const queue: Scenario[] = [];
  for (let t = 0; t < times; t++) queue.push(...selected);
  const results: RecordResult[] = [];
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      const r = await recordOne(s, dryRun);
      results.push(r);
      console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name} ${(r.durationMs / 1000).toFixed(1)} s${r.error ? `\n${r.error}` : ""}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const failed = results.filter((r) => !r.ok);
  console.log(`${results.length - failed.length}/${results.length} runs ok`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

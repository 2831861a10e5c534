/**
 * `npx tsx bench/sandboxProfile.ts [runs]`: where one sandboxed command's milliseconds go, Arcadia's
 * side (its launch: the layout read from the disk, the stand-ins made; the look at what it left
 * behind after) against bubblewrap's (from the spawn to the command's end, beside the same
 * command through a bare `bwrap --unshare-all --ro-bind / /` and unsandboxed). Interleaved, p50
 * and p90 of each phase: a profile to decide what to shrink, not a target (bench/sandbox.ts has those).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapSandbox, standIns } from "../src/core/sandbox";
import { layoutFromDisk } from "../src/core/sandbox/layoutFromDisk";
import { sandboxEnvironment } from "../src/core/sandbox/sandboxEnvironment";
import { ProcessCommandRunner } from "../src/core/tools/processCommandRunner";
import { percentile } from "./percentile";

const RUNS = Number(process.argv[2] ?? 40);

type Phases = Record<string, number[]>;

function add(phases: Phases, name: string, ms: number): void {
  (phases[name] ??= []).push(ms);
}

/** Runs `file args` to its end (stdio ignored), in ms. */
function timed(file: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(file, args, { cwd, stdio: "ignore", env: { PATH: "/usr/bin:/bin" } });
    child.once("error", reject);
    child.once("close", () => resolve(performance.now() - start));
  });
}

async function main(): Promise<void> {
  const sandbox = new BubblewrapSandbox({ settings: () => ({ mode: "unaskedCommands", readablePaths: [] }) });
  const found = await sandbox.availability();
  if (!found.available) throw new Error(found.reason);
  const workspace = mkdtempSync(join(tmpdir(), "arcadia-profile-sandbox-"));
  writeFileSync(join(workspace, "package.json"), "{}\n");
  const repo = join(__dirname, "..");
  const runner = new ProcessCommandRunner();
  const hostEnv = process.env;
  process.env = sandboxEnvironment(hostEnv, homedir());
  const phases: Phases = {};
  const argv = ["/usr/bin/cat", "package.json"];
  const bare = ["--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--chdir", workspace, ...argv];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const keep = i > 0; // the first run warms the page cache
      const t0 = performance.now();
      await layoutFromDisk({ cwd: workspace, writable: [workspace], readable: [], home: homedir(), env: process.env, isStandIn: (p) => standIns.isOurs(p) });
      const t1 = performance.now();
      const launch = await sandbox.launch({ cwd: workspace, folders: [workspace], agentCwd: undefined });
      const t2 = performance.now();
      const handle = await runner.start({ command: argv.join(" "), cwd: workspace, argv, sandbox: launch });
      const t3 = performance.now();
      await handle.ended;
      const t4 = performance.now();
      await launch.leftBehind();
      const t5 = performance.now();
      runner.release(handle.id);
      await standIns.settled();
      const t6 = performance.now();
      const plain = await timed(argv[0]!, argv.slice(1), workspace);
      const bareBwrap = await timed(found.bwrap, bare, workspace);
      const repoLayout = performance.now();
      (await sandbox.launch({ cwd: repo, folders: [repo], agentCwd: undefined })).release();
      const repoLayoutMs = performance.now() - repoLayout;
      await standIns.settled();
      if (!keep) continue;
      add(phases, "layoutFromDisk alone (small workspace)", t1 - t0);
      add(phases, "launch (layout + stand-ins made)", t2 - t1);
      add(phases, "runner.start (spawn of bwrap)", t3 - t2);
      add(phases, "spawn → end (bwrap + cat)", t4 - t3);
      add(phases, "leftBehind (walk again)", t5 - t4);
      add(phases, "Arcadia + bwrap, timed as the bench", t5 - t1);
      add(phases, "stand-ins removed (untimed in the bench)", t6 - t5);
      add(phases, "cat unsandboxed", plain);
      add(phases, "cat in bare bwrap --unshare-all", bareBwrap);
      add(phases, "launch of this repository (walk included)", repoLayoutMs);
    }
  } finally {
    process.env = hostEnv;
    runner.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
  for (const [name, samples] of Object.entries(phases)) {
    samples.sort((a, b) => a - b);
    console.log(`${name.padEnd(46)} p50 ${percentile(samples, 50).toFixed(2).padStart(7)} ms   p90 ${percentile(samples, 90).toFixed(2).padStart(7)} ms`);
  }
}

void main();

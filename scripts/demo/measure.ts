// `npm run demo:measure`: the figures the README gives for `npm run demo`, measured here and
// printed (the README copies them):
//   - first run: a fresh clone of HEAD (after its `npm ci`, not counted) with an empty tool cache
//     (XDG_CACHE_HOME), npm's own download cache warm: the time `npm run demo` itself prints;
//   - later run: the same clone and cache again;
//   - memory with one and with three agents: the proportional set size (PSS: shared pages split
//     between the processes sharing them) of every process the demo started — code-server, its
//     extension host and terminals, each `claude`, the demo model, the proxy — with the agents
//     idle at their prompts. Your browser is not counted;
//   - warning lines in the output of `npm ci`, the first `npm run demo` and `npm run package` in
//     the fresh clone (the README says there are none).
//   node --import tsx scripts/demo/measure.ts [--skip-first-run]
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../../test/e2e/browser";
import { repoRoot } from "../../test/e2e/paths";
import { waitForWorkbench, webviewFrame } from "../../test/e2e/workbench";
import { pollUntil } from "../../test/support/waitFor";

const say = (line: string) => process.stderr.write(`measure: ${line}\n`);

interface Started {
  child: ChildProcess;
  url: string;
  /** What the demo printed: "ready in N s". */
  readySeconds: number;
  /** Everything it printed until then. */
  output: string;
}

/** Lines a person would read as a warning (npm's "npm warn", vsce's and Vite's "WARNING", "(!)"). */
const WARNING = /\bwarn(ing)?\b|\(!\)|EBADENGINE|deprecated/i;
const warningsIn = (output: string) => output.split("\n").filter((line) => WARNING.test(line));

/** Runs `npm <args>` in `cwd` as a person would (npm's default log level), failing loudly; its output. */
function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const run = spawnSync("npm", args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${run.status}):\n${output.slice(-3000)}`);
  return output;
}

/** `npm run demo` in `cwd`, until it prints its URL. */
async function startDemo(cwd: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn("npm", ["run", "demo", "--", "--port", "0"], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const ready = /demo ready in ([\d.]+) s:\s+(\S+)/.exec(out);
      if (ready) {
        child.stdout!.off("data", onData);
        resolve({ child, url: ready[2]!, readySeconds: Number(ready[1]), output: out });
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm run demo exited (${code}) before it was ready:\n${out.slice(-3000)}`)));
  });
}

async function stopDemo(started: Started): Promise<void> {
  const exited = new Promise((r) => started.child.once("exit", r));
  // Ctrl+C, as a person stops it (the whole group: npm, the shell, main.ts).
  process.kill(-started.child.pid!, "SIGINT");
  await exited;
}

/** Every process descending from `root`, by the parent links in /proc. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (found.has(pid) || !found.has(ppid)) continue;
      found.add(pid);
      grew = true;
    }
  }
  return [...found];
}

/** Summed PSS of the processes, in MB, and how many there are. */
function memoryOf(pids: number[]): { mb: number; processes: number } {
  let kb = 0;
  let processes = 0;
  for (const pid of pids) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
      processes++;
    } catch {
      // Gone meanwhile, or a kernel thread.
    }
  }
  return { mb: Math.round(kb / 1024), processes };
}

/** Opens the demo in Chromium, starts agents until `counts` each, and measures the demo's memory at each count. */
async function measureMemory(started: Started, counts: number[]): Promise<Map<number, { mb: number; processes: number }>> {
  const profile = mkdtempSync(join(tmpdir(), "arcadia-measure-browser-"));
  const browser = await launchBrowser(profile, { PATH: process.env.PATH ?? "", HOME: profile });
  const figures = new Map<number, { mb: number; processes: number }>();
  try {
    await waitForWorkbench(browser.page, started.url);
    const panel = webviewFrame(browser.page);
    await panel.getByTestId("open-claude").waitFor({ timeout: 60_000 });
    let agents = 0;
    for (const count of counts) {
      while (agents < count) {
        await panel.getByTestId("open-claude").click();
        agents++;
        // Idle at its prompt by its own status file (the line's status), as a person would leave it.
        await pollUntil(async () => (await panel.locator('[data-testid="agent-line"][data-status="waiting"]').count()) >= agents, `${agents} agent(s) idle`, 90_000);
      }
      // Let start-up work (extension host, the CLI's first requests) settle before reading.
      await new Promise((r) => setTimeout(r, 15_000));
      figures.set(count, memoryOf(descendants(started.child.pid!)));
      say(`${count} agent(s): ${figures.get(count)!.mb} MB in ${figures.get(count)!.processes} processes`);
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return figures;
}

async function main(): Promise<void> {
  const skipFirst = process.argv.includes("--skip-first-run");
  const work = mkdtempSync(join(tmpdir(), "arcadia-measure-"));
  const clone = join(work, "arcadia");
  const cache = join(work, "cache");
  try {
    let env: NodeJS.ProcessEnv = { ...process.env };
    let cwd = repoRoot;
    let first: number | undefined;
    const warnings: Record<string, string[]> = {};
    if (!skipFirst) {
      say(`cloning HEAD into ${clone} and running npm ci there (not counted)…`);
      execFileSync("git", ["clone", "-q", "--no-hardlinks", repoRoot, clone], { stdio: "inherit" });
      warnings["npm ci"] = warningsIn(npm(clone, ["ci"]));
      env = { ...process.env, XDG_CACHE_HOME: cache };
      cwd = clone;
      say("first run (empty tool cache)…");
      const run = await startDemo(cwd, env);
      first = run.readySeconds;
      warnings["npm run demo"] = warningsIn(run.output);
      say(`first run ready in ${first} s`);
      await stopDemo(run);
      warnings["npm run package"] = warningsIn(npm(clone, ["run", "package"], env));
    }
    say("later run…");
    const later = await startDemo(cwd, env);
    say(`later run ready in ${later.readySeconds} s`);
    const memory = await measureMemory(later, [1, 3]);
    await stopDemo(later);
    const gb = (mb: number) => (mb / 1024).toFixed(1);
    const one = memory.get(1)!;
    const three = memory.get(3)!;
    process.stdout.write(
      [
        "",
        "demo figures (this machine):",
        first === undefined ? "  first run: not measured (--skip-first-run)" : `  first run: ready in ${Math.round(first)} s (empty tool cache, npm's cache warm)`,
        `  later run: ready in ${Math.round(later.readySeconds)} s`,
        `  memory, 1 agent idle: ${gb(one.mb)} GB (${one.processes} processes)`,
        `  memory, 3 agents idle: ${gb(three.mb)} GB (${three.processes} processes); each further agent about ${Math.round((three.mb - one.mb) / 2)} MB`,
        ...Object.entries(warnings).map(([command, lines]) => `  warning lines in \`${command}\`: ${lines.length === 0 ? "none" : `${lines.length}\n${lines.map((l) => `    ${l}`).join("\n")}`}`),
        "",
      ].join("\n") + "\n",
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  say(`failed: ${(err as Error).message}`);
  process.exit(1);
});

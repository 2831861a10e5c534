/**
 * What the sandbox adds to a command: the same command run through Arcadia's runner with and
 * without bubblewrap (the sandboxed run includes reading its layout from the disk before and
 * looking for repositories it left behind after, as execute_command does for every command),
 * interleaved so a load swing hits both alike. A tiny command (`cat` of one file) shows the fixed cost; `node -e 0` is what `npm test` starts with.
 * The workspace has no .git, .claude or .vscode: each sandboxed run makes and removes three stand-ins.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapSandbox, FolderWalks, standIns } from "../src/core/sandbox";
import { sandboxEnvironment } from "../src/core/sandbox/sandboxEnvironment";
import { ProcessCommandRunner } from "../src/core/tools/processCommandRunner";
import { percentile } from "./percentile";

/** How many folders `top` holds (for the row's label; the walk itself skips .git and the protected folders). */
async function nestedRepositoriesCount(top: string): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  let count = 0;
  const walk = async (folder: string): Promise<void> => {
    count++;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.name !== ".git" && e.isDirectory()) await walk(join(folder, e.name));
  };
  await walk(top);
  return count;
}

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;

const RUNS = 40;
/** What an `npm test`-style command can take on top of its own start without anyone minding. */
const ADDED_TARGET_MS = 20;
/** Reading the layout of a real repository (node_modules included): the walk for nested repositories, per command. */
const LAYOUT_TARGET_MS = 20;

export async function sandboxBenchmarks(row: Row): Promise<void> {
  const sandbox = new BubblewrapSandbox({ settings: () => ({ mode: "unaskedCommands", readablePaths: [] }) });
  const found = await sandbox.availability();
  if (!found.available) {
    console.log(`sandbox: not measured (${found.reason})`);
    return;
  }
  const workspace = mkdtempSync(join(tmpdir(), "arcadia-bench-sandbox-"));
  writeFileSync(join(workspace, "package.json"), "{}\n");
  const runner = new ProcessCommandRunner();
  // The same environment both ways (the sandbox's allow-list): NODE_EXTRA_CA_CERTS alone made
  // every unsandboxed node start 30 ms slower here, a loader the bench runs under (tsx) more.
  const hostEnv = process.env;
  process.env = sandboxEnvironment(hostEnv, homedir());
  const run = async (argv: string[], sandboxed: boolean): Promise<number> => {
    const start = performance.now();
    const launch = sandboxed ? await sandbox.launch({ cwd: workspace, folders: [workspace], agentCwd: undefined }) : undefined;
    const handle = await runner.start({ command: argv.join(" "), cwd: workspace, argv, ...(launch ? { sandbox: launch } : {}) });
    const end = await handle.ended;
    // What execute_command does after every sandboxed command: look for repositories it left behind.
    await launch?.leftBehind();
    runner.release(handle.id);
    if (end.kind !== "exited" || end.exitCode !== 0) throw new Error(`${argv.join(" ")} ${sandboxed ? "in the sandbox " : ""}ended ${JSON.stringify(end)}`);
    const took = performance.now() - start;
    // Its stand-ins are removed just after its end is told (standIns.ts; the agent does not wait on
    // that): let it finish here, untimed, so that it never slows the next, unsandboxed run.
    await standIns.settled();
    return took;
  };
  try {
    for (const [label, argv] of [
      ["cat", ["/usr/bin/cat", "package.json"]],
      ["node -e 0", [process.execPath, "-e", "0"]],
    ] as const) {
      const plain: number[] = [];
      const boxed: number[] = [];
      await run([...argv], true); // warm the page cache
      for (let i = 0; i < RUNS; i++) {
        plain.push(await run([...argv], false));
        boxed.push(await run([...argv], true));
      }
      plain.sort((a, b) => a - b);
      boxed.sort((a, b) => a - b);
      const added = percentile(boxed, 50) - percentile(plain, 50);
      const figures = (samples: number[]) => `${percentile(samples, 50).toFixed(1)} / ${percentile(samples, 99).toFixed(1)} ms`;
      row(`${label}, unsandboxed (p50 / p99)`, figures(plain), "(the same command, for comparison)", undefined);
      row(`${label}, in the sandbox (p50 / p99)`, figures(boxed), `added p50 ≤ ${ADDED_TARGET_MS} ms`, added <= ADDED_TARGET_MS);
      row("  added by the sandbox (p50)", `${added.toFixed(1)} ms`, `×${(percentile(boxed, 50) / percentile(plain, 50)).toFixed(2)} of the command alone`, undefined);
    }
    // The layout of this repository (its node_modules included): what every command's launch reads.
    // Warm: the walk's records (folderWalks.ts) from the command before, each folder's ctime looked
    // at, the changed ones read; first: no records, every folder read (a window's first command).
    const repo = join(__dirname, "..");
    const folders = (await nestedRepositoriesCount(repo)).toLocaleString("en");
    for (const [label, fresh] of [
      ["records warm", false],
      ["first walk, no records", true],
    ] as const) {
      const layouts: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const box = fresh ? new BubblewrapSandbox({ settings: () => sandbox.settings(), walks: new FolderWalks() }) : sandbox;
        if (fresh) await box.availability();
        const start = performance.now();
        (await box.launch({ cwd: repo, folders: [repo], agentCwd: undefined })).release();
        layouts.push(performance.now() - start);
        await standIns.settled();
      }
      layouts.sort((a, b) => a - b);
      row(
        `layout of this repository (${folders} folders), ${label} (p50 / p99)`,
        `${percentile(layouts, 50).toFixed(1)} / ${percentile(layouts, 99).toFixed(1)} ms`,
        fresh ? "(for comparison: what each command cost before the records)" : `p50 ≤ ${LAYOUT_TARGET_MS} ms`,
        fresh ? undefined : percentile(layouts, 50) <= LAYOUT_TARGET_MS,
      );
    }
  } finally {
    process.env = hostEnv;
    runner.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
}

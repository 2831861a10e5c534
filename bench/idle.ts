/**
 * The idle figures (bench/idleProcess.ts) measured in a process of their own, run from a bundle as
 * the extension host runs Arcadia's code: under `tsx`, the loader keeps an esbuild service that
 * pings the process, which idled at 0.15–1.2 % of a core where the same engine, bundled, idles at
 * 0.015 % — the loader's cost, not Arcadia's.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { loadScenario, sessionFiles } from "../test/support/recorded";

export function idleBenchmarks(dir: string): void {
  const bundle = join(dir, "idle-bench.cjs");
  buildSync({
    entryPoints: [join(__dirname, "idleProcess.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: bundle,
    logLevel: "warning",
  });
  const transcript = sessionFiles(loadScenario("several-tools"))[0] as string;
  const result = spawnSync(process.execPath, ["--expose-gc", bundle, transcript, dir], { stdio: "inherit" });
  if (result.status !== 0) console.error(`✗ the idle bench failed (exit ${result.status ?? result.signal})`);
}

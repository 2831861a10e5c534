// `claude -p`: one prompt, no terminal. Output is collected; the namespace is swept afterwards so
// a tool or the model server left behind cannot outlive the run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { launchChild, type LaunchSpec } from "./launch.js";

export interface PrintResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export async function runPrintProcess(spec: LaunchSpec, timeoutMs: number): Promise<PrintResult> {
  const started = Date.now();
  const { proc, ns } = launchChild(spec);
  let stdout = "";
  let stderr = "";
  proc.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  proc.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  // Capture the namespace as soon as the server is up (it is gone once the shell exits).
  const poll = setInterval(() => {
    if (existsSync(join(spec.runDir, "port"))) {
      ns.capture();
      clearInterval(poll);
    }
  }, 25);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ns.killAll();
  }, timeoutMs);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => proc.on("close", (code, sig) => resolve([code, sig])));
  clearTimeout(timer);
  clearInterval(poll);
  ns.killAll();
  return { exitCode, signal, stdout, stderr, timedOut, durationMs: Date.now() - started };
}

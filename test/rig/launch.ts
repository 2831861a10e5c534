// Starts one CLI process, together with its own model server, inside ONE fresh loopback-only
// network namespace. The filesystem is shared, so the test reads transcripts directly.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { closeSync, openSync, readlinkSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as pty from "@lydell/node-pty";
import { claudeBinary } from "./cli-binary.js";
import { killNamespace, namespaceProcesses, namespaceSupport, namespacedArgv, netnsOf } from "./namespace.js";

const rigDir = dirname(fileURLToPath(import.meta.url));

export interface LaunchSpec {
  /** Folder for this launch's port file and server log. */
  runDir: string;
  scriptFile: string;
  /** Shared JSONL log of every model request (all launches of a rig append to it). */
  requestLog: string;
  cwd: string;
  env: Record<string, string>;
  /** Arguments after the `claude` executable. */
  args: string[];
  /** A TypeScript entry to run beside the CLI in its namespace; the CLI waits for `readyFile`. */
  sidecar?: { script: string; args: string[]; readyFile: string };
}

/** argv for `unshare`: model server in the background, then the CLI. */
function buildArgv(spec: LaunchSpec): string[] {
  const ns = namespaceSupport();
  if (!ns.ok) throw new Error(`cannot run the CLI safely: ${ns.reason}`);
  // Absolute loader path: the server runs with cwd = the workspace, which has no node_modules.
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const server = [
    process.execPath,
    "--import",
    tsxLoader,
    join(rigDir, "model-server-main.ts"),
    "--script",
    spec.scriptFile,
    "--port-file",
    join(spec.runDir, "port"),
    "--log",
    spec.requestLog,
  ];
  return namespacedArgv({
    server,
    portFile: join(spec.runDir, "port"),
    serverLogFile: join(spec.runDir, "server.log"),
    command: [claudeBinary(), ...spec.args],
    sidecar: spec.sidecar && {
      argv: [process.execPath, "--import", tsxLoader, spec.sidecar.script, ...spec.sidecar.args],
      readyFile: spec.sidecar.readyFile,
      logFile: join(spec.runDir, "sidecar.log"),
    },
  });
}

// Handles not yet killed. If the test process exits without disposing (a crashed worker, an
// uncaught error), its CLIs must not outlive it: kill them synchronously on the way out.
const live = new Set<NamespaceHandle>();
process.once("exit", () => {
  for (const h of [...live]) h.killAll();
});

/** Remembers the namespace of a launched pid so every process in it can be killed later, even
 * ones that left the process group. From capture to release it holds the namespace open: the
 * kernel gives a freed namespace's id to the next one made (seen here within five launches), so a
 * sweep by the id of a namespace already gone would SIGKILL whichever launch has it now, another
 * test's CLI or, on a shared machine, another run's. */
export class NamespaceHandle {
  private ns: string | undefined;
  private held: number | undefined;
  private exited = false;
  private released = false;
  constructor(private readonly pid: number) {
    live.add(this);
    // `unshare` makes the namespace within milliseconds: held from then on, not only from when a
    // caller thinks of it (a print run can be over before its port file is seen).
    const poll = setInterval(() => {
      this.capture();
      if (this.ns || this.exited || this.released) clearInterval(poll);
    }, 5);
    poll.unref();
  }

  /** The launched process ended and was reaped: its pid may be anyone's from now on. */
  markExited(): void {
    this.exited = true;
  }

  /** Call once the namespace surely exists (e.g. the model server's port file is there). */
  capture(): void {
    if (this.ns || this.exited || this.released) return;
    let fd: number;
    try {
      fd = openSync(`/proc/${this.pid}/ns/net`, "r");
    } catch {
      return;
    }
    const ns = readlinkSync(`/proc/self/fd/${fd}`);
    if (ns === netnsOf("self")) closeSync(fd);
    else [this.ns, this.held] = [ns, fd];
  }

  /** Processes currently in the namespace (the CLI, its tools, the model server…). */
  processes(): { pid: number; cmdline: string }[] {
    this.capture();
    return namespaceProcesses(this.ns);
  }

  killAll(): void {
    live.delete(this);
    if (this.released) return;
    this.capture();
    // The group by its leader's pid only while that pid is still the leader's.
    if (!this.exited) {
      try {
        process.kill(-this.pid, "SIGKILL");
      } catch {
        // Group already gone.
      }
    }
    killNamespace(this.ns);
    if (this.exited) this.release();
  }

  /** Lets the namespace go: its id means nothing to this handle afterwards. */
  release(): void {
    live.delete(this);
    this.released = true;
    this.ns = undefined;
    if (this.held !== undefined) closeSync(this.held);
    this.held = undefined;
  }
}

export interface PtyLaunch {
  proc: pty.IPty;
  ns: NamespaceHandle;
}

export function launchPty(spec: LaunchSpec, cols: number, rows: number): PtyLaunch {
  const proc = pty.spawn("unshare", buildArgv(spec), { name: "xterm-256color", cols, rows, cwd: spec.cwd, env: spec.env });
  const ns = new NamespaceHandle(proc.pid);
  proc.onExit(() => ns.markExited());
  return { proc, ns };
}

export interface ChildLaunch {
  proc: ChildProcess;
  ns: NamespaceHandle;
}

/** A plain child (print mode): its own process group, stdin closed like in CI. */
export function launchChild(spec: LaunchSpec): ChildLaunch {
  const proc = spawn("unshare", buildArgv(spec), {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (proc.pid === undefined) throw new Error("failed to spawn unshare");
  const ns = new NamespaceHandle(proc.pid);
  proc.on("exit", () => ns.markExited());
  return { proc, ns };
}

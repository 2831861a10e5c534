// Loopback-only network namespaces: the ONLY place the real CLI and its model server may run.
// `unshare -n` (no --fork) unshares the network namespace and then execs its command, so the
// spawned pid itself lives in the new namespace; everything it starts inherits it. That gives a
// cleanup handle that survives setsid/process-group games of the CLI's children: on dispose we
// kill every process whose /proc/<pid>/ns/net is the namespace's.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { posixQuote } from "../../src/core/util/posixQuote";

export type NamespaceSupport = { ok: true } | { ok: false; reason: string };

let cached: NamespaceSupport | undefined;

/** Actually tries `unshare -n` (and bringing `lo` up), once per process. */
export function namespaceSupport(): NamespaceSupport {
  if (cached) return cached;
  if (process.platform !== "linux") return (cached = { ok: false, reason: `platform ${process.platform} has no network namespaces` });
  const r = spawnSync("unshare", ["-n", "--", "sh", "-c", "ip link set lo up && true"], { encoding: "utf8", timeout: 10_000 });
  if (r.error) cached = { ok: false, reason: `unshare -n failed: ${r.error.message}` };
  else if (r.status !== 0)
    cached = { ok: false, reason: `unshare -n exited ${r.status}: ${(r.stderr || "").trim()} (needs root or CAP_SYS_ADMIN, and iproute2)` };
  else cached = { ok: true };
  return cached;
}

/** The network-namespace id (`net:[inode]`) of a pid, or undefined if it is gone. */
export function netnsOf(pid: number | "self"): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

/** SIGKILLs every process in namespace `ns`. Refuses to act on our own namespace, so a wrong id
 * can never take down the host's processes. Returns the pids signalled. Give it only the id of a
 * namespace held open (NamespaceHandle): a freed id is soon another namespace's. */
export function killNamespace(ns: string | undefined): number[] {
  if (!ns || ns === netnsOf("self")) return [];
  const killed: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (netnsOf(pid) !== ns) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      // Already gone.
    }
  }
  return killed;
}

/** Processes in namespace `ns` with their command lines (NUL separators turned into spaces). */
export function namespaceProcesses(ns: string | undefined): { pid: number; cmdline: string }[] {
  if (!ns || ns === netnsOf("self")) return [];
  const out: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || netnsOf(Number(entry)) !== ns) continue;
    try {
      out.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim() });
    } catch {
      // Exited meanwhile.
    }
  }
  return out;
}

/** Builds the `unshare` argv that brings up `lo`, starts the model server in the background,
 * waits for its port file, points ANTHROPIC_BASE_URL at it and runs `command`. The shell stays as
 * the command's parent so it can stop the server when the command exits (the namespace sweep in
 * killNamespace is the backstop for everything else). */
export function namespacedArgv(opts: {
  /** argv of the model server. */
  server: string[];
  portFile: string;
  /** Server stdout/stderr go here: the pty must only show the CLI. */
  serverLogFile: string;
  command: string[];
  /** Another process for the same namespace (e.g. an MCP server the CLI must reach), started
   * after the model server; the CLI starts once `readyFile` exists. */
  sidecar?: { argv: string[]; readyFile: string; logFile: string };
}): string[] {
  const script = [
    "ip link set lo up || exit 96",
    `${opts.server.map(posixQuote).join(" ")} >>${posixQuote(opts.serverLogFile)} 2>&1 </dev/null &`,
    "server_pid=$!",
    "waited=0",
    `while [ ! -s ${posixQuote(opts.portFile)} ]; do`,
    "  sleep 0.05; waited=$((waited+1))",
    `  if ! kill -0 $server_pid 2>/dev/null; then echo "model server died; see ${opts.serverLogFile}" >&2; exit 98; fi`,
    `  if [ "$waited" -gt 600 ]; then echo "model server did not start; see ${opts.serverLogFile}" >&2; kill $server_pid; exit 97; fi`,
    "done",
    `export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat ${posixQuote(opts.portFile)})"`,
    ...(opts.sidecar
      ? [
          `${opts.sidecar.argv.map(posixQuote).join(" ")} >>${posixQuote(opts.sidecar.logFile)} 2>&1 </dev/null &`,
          "sidecar_pid=$!",
          "waited=0",
          `while [ ! -s ${posixQuote(opts.sidecar.readyFile)} ]; do`,
          "  sleep 0.05; waited=$((waited+1))",
          `  if ! kill -0 $sidecar_pid 2>/dev/null || [ "$waited" -gt 600 ]; then echo "sidecar did not start; see ${opts.sidecar.logFile}" >&2; kill $server_pid; exit 95; fi`,
          "done",
        ]
      : []),
    '"$@"',
    "rc=$?",
    "kill $server_pid ${sidecar_pid:-} 2>/dev/null",
    "exit $rc",
  ].join("\n");
  // The command is passed as positional parameters: no shell parsing of prompts or paths.
  return ["-n", "--", "sh", "-c", script, "arcadia-ns", ...opts.command];
}

// The demo itself (run by run.sh once the tools are there): prepares a throwaway run folder,
// starts the namespace (inner.sh: the demo model + code-server, and so every terminal and
// `claude`), opens the browser's way in (proxy.ts), prints the URL, and on Ctrl+C stops it all and
// removes the folder.
//
//   node --import tsx scripts/demo/main.ts [--port N] [--keep]
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { e2ePaths } from "../../test/e2e/paths";
import { MODEL_PORT, prepareRun, repoRoot, type DemoRun } from "./prepare";
import { COOKIE_NAME, TOKEN_PARAM } from "./gate";
import { parseArgs } from "./args";
import { startProxy, type Proxy } from "./proxy";
import { pollUntil } from "../../test/support/waitFor";

const say = (line: string) => process.stderr.write(`demo: ${line}\n`);

/** Starts inner.sh as PID 1 of a new loopback-only net + pid namespace. Its own session
 * (detached), so Ctrl+C reaches only this process, which then stops things in order. */
function startNamespace(run: DemoRun, unshareArgs: string[]): ChildProcess {
  const tsx = pathToFileURL(createRequire(__filename).resolve("tsx")).href;
  const env: Record<string, string> = {
    ...run.env,
    DEMO_ROOT: run.root,
    DEMO_NODE24: e2ePaths.node,
    DEMO_CODE_SERVER: e2ePaths.codeServer,
    // Arcadia first: the panel opener depends on it.
    DEMO_VSIX: [join(repoRoot, "dist", "arcadia.vsix"), join(repoRoot, "dist", "arcadia-demo.vsix")].join(":"),
    DEMO_WORKSPACE: run.workspace,
    DEMO_SOCKET: run.socket,
    DEMO_HOST_NETNS: readlinkSync("/proc/self/ns/net"),
    DEMO_NODE: process.execPath,
    DEMO_TSX: tsx,
    DEMO_REPO: repoRoot,
    DEMO_SCRIPT: run.scriptFile,
    DEMO_MODEL_PORT: String(MODEL_PORT),
  };
  return spawn("unshare", [...unshareArgs, "--", "bash", join(__dirname, "inner.sh")], {
    env,
    cwd: run.root,
    // stdin: the lifeline (see inner.sh); its messages go straight to the terminal.
    stdio: ["pipe", "inherit", "inherit"],
    detached: true,
  });
}

/** Resolves once code-server answers /healthz through the proxy; rejects if the namespace ends
 * first or it takes too long. */
async function waitUntilServing(url: string, token: string, ns: ChildProcess, timeoutMs: number): Promise<void> {
  // Polling is the only way to see a server become ready; it takes a few seconds.
  await pollUntil(
    async () => {
      if (ns.exitCode !== null || ns.signalCode !== null) throw new Error("the namespace stopped before code-server was up");
      try {
        return (await fetch(`${url}/healthz`, { headers: { cookie: `${COOKIE_NAME}=${token}` } })).ok;
      } catch {
        // A network hiccup; until code-server listens the proxy answers 503, which is not ok either.
        return false;
      }
    },
    "code-server to answer",
    timeoutMs,
    200,
  );
}

/** The last lines of the run's logs, for when something went wrong. */
function showLogs(run: DemoRun): void {
  for (const file of [join(run.root, "code-server.log"), join(run.root, "model", "server.log")]) {
    const text = existsSync(file) ? readFileSync(file, "utf8").trimEnd() : "";
    if (text) process.stderr.write(`--- ${file} (last lines) ---\n${text.split("\n").slice(-25).join("\n")}\n`);
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const unshareArgs = (process.env.ARCADIA_DEMO_UNSHARE ?? "").split(" ").filter(Boolean);
  // Never without the namespace: run.sh checked that it can be made and says how.
  if (!unshareArgs.includes("--net")) throw new Error("start the demo with `npm run demo` (it checks the namespace first)");
  const started = Number(process.env.ARCADIA_DEMO_T0_MS) || Date.now();

  let run: DemoRun | undefined;
  let proxy: Proxy | undefined;
  let ns: ChildProcess | undefined;
  let stopping: Promise<void> | undefined;
  let ready = false;

  const stop = (code: number) =>
    (stopping ??= (async () => {
      if (ns) say("stopping: code-server, the demo model and every claude in the namespace…");
      await proxy?.close();
      if (ns && ns.exitCode === null && ns.signalCode === null) {
        const exited = new Promise((r) => ns!.once("exit", r));
        ns.stdin?.end("stop\n");
        // The namespace normally closes within a second or two; SIGKILL on unshare takes its
        // init (--kill-child), and with it every process in the namespace, at once.
        const timer = setTimeout(() => ns!.kill("SIGKILL"), 8_000);
        await exited;
        clearTimeout(timer);
      }
      if (run) {
        if (opts.keep) say(`kept ${run.root} (workspace: ${run.workspace}; logs: code-server.log, model/)`);
        else {
          rmSync(run.root, { recursive: true, force: true, maxRetries: 3 });
          say(`removed ${run.root}`);
        }
      }
      if (ns) say("stopped.");
      process.exit(code);
    })());

  // A second Ctrl+C while stopping: do not wait for anything any more.
  const onSignal = () => {
    if (stopping) ns?.kill("SIGKILL");
    void stop(0);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);

  try {
    // The port first: a port in use is the likeliest problem and costs nothing to find out.
    // Only whoever has the printed URL gets in (gate.ts).
    const token = randomBytes(18).toString("base64url");
    proxy = await startProxy({ port: opts.port, token, socketPath: () => run?.socket });
    run = prepareRun({ keep: opts.keep });
    const url = `http://127.0.0.1:${proxy.port}`;
    ns = startNamespace(run, unshareArgs);
    ns.once("exit", (code, signal) => {
      // Before it is ready, waitUntilServing notices and the catch below reports.
      if (stopping || !ready) return;
      say(`the namespace ended unexpectedly (${code ?? signal})`);
      showLogs(run!);
      void stop(1);
    });
    say(`starting code-server and the demo model in a loopback-only namespace (${unshareArgs.join(" ")})…`);
    await waitUntilServing(url, token, ns, 90_000);
    ready = true;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      [
        "",
        `  Arcadia demo ready in ${seconds} s:  ${url}/?${TOKEN_PARAM}=${token}`,
        "",
        "  Open it in your browser. Click \"Run the Story\" (or F1 → Arcadia Demo: Run the Story): five",
        "  agents at once — two worktrees that conflict and merge after a rebase, two agents on one file",
        "  (the guard asks), a usage limit, a command that never ends. Or, in the Arcadia panel at the",
        '  bottom, click "Open Claude Code" and type any prompt in the terminal that opens.',
        "  `claude` there is the real Claude Code CLI talking to a scripted DEMO MODEL on this machine,",
        "  not to Claude. Nothing leaves the machine.",
        "",
        `  Workspace (a throwaway copy): ${run.workspace}`,
        opts.keep ? "  Stop: Ctrl+C (stops everything; --keep: the temp folder stays)" : "  Stop: Ctrl+C (stops everything and removes the temp folder)",
        "",
      ].join("\n") + "\n",
    );
  } catch (err) {
    say(`failed: ${(err as Error).message}`);
    if (run) showLogs(run);
    await stop(1);
  }
}

main().catch((err: unknown) => {
  say(`failed: ${(err as Error).message}`);
  process.exit(1);
});

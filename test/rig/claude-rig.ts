// The test rig: a throwaway HOME and workspace, a scripted model server, and the pinned real CLI,
// all run inside loopback-only network namespaces. One rig = one workspace; it can launch several
// CLIs (interactive or print) one after another or side by side, each in its own namespace with
// its own copy of the model server (all reading the same script, all logging to one file).
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cliEnv, createHome, type RigHome } from "./home.js";
import { InteractiveSession } from "./interactive.js";
import type { LaunchSpec } from "./launch.js";
import type { RecordedRequest } from "./model-server.js";
import { rigPaths, type RigPaths } from "./paths.js";
import { runPrintProcess, type PrintResult } from "./print.js";
import { readRecords } from "./transcripts.js";
import type { Script } from "./script.js";

export { CLAUDE_CODE_VERSION, claudeBinary } from "./cli-binary.js";
export { namespaceSupport } from "./namespace.js";
export { createHome } from "./home.js";
export type { InteractiveSession } from "./interactive.js";
export type { PrintResult } from "./print.js";
export type { Script, Step, Conversation } from "./script.js";

export interface RigOptions {
  /** The model's script; a function gets the rig's paths (tool inputs often need absolute paths). */
  script: Script | ((where: { home: string; workspace: string; root: string }) => Script);
  /** Extra environment for every CLI of this rig. */
  env?: Record<string, string>;
  /** Files to create in the workspace (relative path → content). */
  files?: Record<string, string>;
  /** Keep the temp folder after dispose (debugging). */
  keep?: boolean;
}

export interface LaunchOptions {
  sessionId?: string;
  /** `--resume <id>` instead of `--session-id`: continue that session (the CLI refuses both together). */
  resume?: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface Rig extends RigPaths {
  /** Temp root holding `home/` (with `home/project` = the workspace), `tmp/` ($TMPDIR of the
   * CLI) and `runs/` (script, model request log, per-launch port files and server logs). */
  root: string;
  rigHome: RigHome;
  /** Starts `claude --session-id <id> --permission-mode default [args]` in a 120x40 pty and waits
   * until it accepts input. */
  startInteractive(
    opts?: LaunchOptions & { cols?: number; rows?: number; readyTimeoutMs?: number; sidecar?: LaunchSpec["sidecar"]; cwd?: string },
  ): Promise<InteractiveSession>;
  /** `claude -p <prompt> --session-id <id> --output-format text [args]`. */
  /** `cwd` defaults to the workspace. */
  runPrint(
    prompt: string,
    opts?: LaunchOptions & { timeoutMs?: number; outputFormat?: "text" | "json" | "stream-json"; cwd?: string; sidecar?: LaunchSpec["sidecar"] },
  ): Promise<PrintResult & { sessionId: string }>;
  /** Every request the model servers of this rig received so far. */
  requests(): RecordedRequest[];
  dispose(): Promise<void>;
}

export async function createRig(options: RigOptions): Promise<Rig> {
  // Workspace inside HOME: scrubbing maps both to /home/user and /home/user/project.
  const root = realpathSync(mkdtempSync(join(tmpdir(), "arcadia-rig-")));
  const home = join(root, "home");
  const workspace = join(home, "project");
  mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), content);
  }
  const rigHome = createHome(workspace, { home });
  const paths = rigPaths(home, workspace);
  const runsDir = join(root, "runs");
  mkdirSync(runsDir);
  const scriptFile = join(runsDir, "script.json");
  const script = typeof options.script === "function" ? options.script({ home, workspace, root }) : options.script;
  writeFileSync(scriptFile, JSON.stringify(script, null, 2));
  // The CLI keeps task output under $TMPDIR/claude-<uid>/<slug>/; keep that inside the rig too.
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  const requestLog = join(runsDir, "requests.jsonl");
  writeFileSync(requestLog, "");

  const live = new Set<{ dispose(): Promise<void> }>();
  let runCount = 0;

  const spec = (args: string[], env: Record<string, string> | undefined, cwd = workspace, sidecar?: LaunchSpec["sidecar"]): LaunchSpec => {
    const runDir = join(runsDir, `run-${++runCount}`);
    mkdirSync(runDir);
    return { runDir, scriptFile, requestLog, cwd, env: cliEnv(rigHome, { TMPDIR: tmp, ...options.env, ...env }), args, sidecar };
  };

  return {
    ...paths,
    root,
    rigHome,
    async startInteractive(opts = {}) {
      const sessionId = opts.sessionId ?? randomUUID();
      const session = new InteractiveSession(
        sessionId,
        paths,
        spec([...sessionArgs(opts, sessionId), "--permission-mode", "default", ...(opts.args ?? [])], opts.env, opts.cwd ?? workspace, opts.sidecar),
        opts.cols ?? 120,
        opts.rows ?? 40,
      );
      live.add(session);
      try {
        await session.waitForReady(opts.readyTimeoutMs ?? 30_000);
      } catch (err) {
        await session.dispose();
        throw err;
      }
      return session;
    },
    async runPrint(prompt, opts = {}) {
      const sessionId = opts.sessionId ?? randomUUID();
      const args = ["-p", prompt, ...sessionArgs(opts, sessionId), "--output-format", opts.outputFormat ?? "text"];
      if (opts.outputFormat === "stream-json") args.push("--verbose");
      const result = await runPrintProcess(spec([...args, ...(opts.args ?? [])], opts.env, opts.cwd, opts.sidecar), opts.timeoutMs ?? 90_000);
      return { ...result, sessionId };
    },
    requests: () => readRecords(requestLog) as unknown as RecordedRequest[],
    async dispose() {
      await Promise.all([...live].map((s) => s.dispose()));
      live.clear();
      if (!options.keep) rmSync(root, { recursive: true, force: true });
    },
  };
}

function sessionArgs(opts: LaunchOptions, sessionId: string): string[] {
  return opts.resume ? ["--resume", opts.resume] : ["--session-id", sessionId];
}

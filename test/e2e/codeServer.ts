// One code-server (VS Code 1.139 served over HTTP) with its own throwaway folders: user data,
// extensions, XDG dirs and HOME all live under `root`, never in the real home. Runs under the
// Node 24 that setup.sh installs.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync, createWriteStream } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { e2ePaths, repoRoot } from "./paths";
import { killTree } from "./processes";
import { pollUntil } from "../support/waitFor";

/** Settings that make a run deterministic (see shared/reference/vscode-e2e.md). */
export const DETERMINISTIC_SETTINGS: Record<string, unknown> = {
  // Terminal text in the DOM (.xterm-rows) instead of a canvas, so tests can read it.
  "terminal.integrated.gpuAcceleration": "off",
  "terminal.integrated.enablePersistentSessions": false,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "chat.disableAIFeatures": true,
  "workbench.enableExperiments": false,
  "workbench.tips.enabled": false,
  // The empty secondary side bar (chat) would take a third of the screenshots.
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  // code-server forwards every port it sees opened (Arcadia's server, the model server) and says so
  // in a notification that can cover the panel: nothing here is meant for a browser.
  "remote.autoForwardPorts": false,
  // The scenarios count Claude Code's own Bash prompts: agents start without Claude Code's sandbox
  // (which would run those commands unasked) unless a test turns it on (agentSandbox.e2e.test.ts).
  "arcadia.agentSandbox": "off",
};

export interface CodeServerDirs {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  home: string;
}

export interface CodeServer {
  url: string;
  pid: number;
  /** Everything code-server printed so far (also written to `<root>/code-server.log`). */
  output(): string;
  /** SIGKILLs code-server and every process it started (extension host, pty host, shells…). */
  kill(): void;
}

export function codeServerDirs(root: string): CodeServerDirs {
  const dirs = {
    root,
    userDataDir: join(root, "user-data"),
    extensionsDir: join(root, "extensions"),
    home: join(root, "home"),
  };
  for (const d of [dirs.userDataDir, join(dirs.userDataDir, "User"), dirs.extensionsDir, dirs.home]) mkdirSync(d, { recursive: true });
  mkdirSync(join(root, "tmp"));
  for (const x of ["config", "data", "cache"]) mkdirSync(join(root, "xdg", x), { recursive: true });
  return dirs;
}

/** A clean environment (not process.env: the test runner's NODE_OPTIONS, VITEST_* and the like
 * would leak into the extension host and the terminals). */
export function codeServerEnv(dirs: CodeServerDirs, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "LANG", "LC_ALL", "TZ"]) if (process.env[k]) env[k] = process.env[k]!;
  return {
    ...env,
    HOME: dirs.home,
    USER: "user",
    SHELL: "/bin/bash",
    XDG_CONFIG_HOME: join(dirs.root, "xdg", "config"),
    XDG_DATA_HOME: join(dirs.root, "xdg", "data"),
    XDG_CACHE_HOME: join(dirs.root, "xdg", "cache"),
    // VS Code leaves its IPC sockets (vscode-ipc-*.sock, vscode-git-*.sock) in TMPDIR when killed.
    TMPDIR: join(dirs.root, "tmp"),
    // No gallery: nothing asks an outside host about extensions (the namespace would block it anyway).
    EXTENSIONS_GALLERY: "{}",
    ...extra,
  };
}

function commonArgs(dirs: CodeServerDirs): string[] {
  const config = join(dirs.root, "code-server.yaml");
  // An explicit config file: otherwise code-server writes one (with a password) under XDG_CONFIG_HOME.
  writeFileSync(config, "auth: none\ncert: false\n");
  return [e2ePaths.codeServer, "--config", config, "--user-data-dir", dirs.userDataDir, "--extensions-dir", dirs.extensionsDir];
}

export async function installExtension(dirs: CodeServerDirs, vsix: string, env: Record<string, string>): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)(e2ePaths.node, [...commonArgs(dirs), "--install-extension", vsix], {
    env,
    timeout: 60_000,
  });
  if (!/successfully installed/.test(stdout)) throw new Error(`installing ${vsix} failed:\n${stdout}\n${stderr}`);
}

/** Arcadia's settings of `machine` scope (package.json): code-server applies them only from its Machine settings. */
function machineScoped(): Set<string> {
  type Manifest = { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as Manifest;
  return new Set(Object.entries(manifest.contributes.configuration.properties).flatMap(([key, p]) => (p.scope === "machine" ? [key] : [])));
}

/** Changes one user setting while code-server runs (it watches its settings files), in the file its scope reads from. */
export function updateUserSetting(userDataDir: string, key: string, value: unknown): void {
  const file = join(userDataDir, machineScoped().has(key) ? "Machine" : "User", "settings.json");
  const settings = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...settings, [key]: value }, null, 2) + "\n");
}

/**
 * The user's settings, as a person would set them in code-server: `machine` ones (arcadia.claudePath,
 * arcadia.extraArgs: a workspace may not set them) in its Machine settings, the rest in User.
 */
export function writeSettings(dirs: CodeServerDirs, settings: Record<string, unknown>): void {
  const machine = machineScoped();
  const all = Object.entries({ ...DETERMINISTIC_SETTINGS, ...settings });
  for (const [scope, entries] of [
    ["User", all.filter(([key]) => !machine.has(key))],
    ["Machine", all.filter(([key]) => machine.has(key))],
  ] as const) {
    mkdirSync(join(dirs.userDataDir, scope), { recursive: true });
    writeFileSync(join(dirs.userDataDir, scope, "settings.json"), JSON.stringify(Object.fromEntries(entries), null, 2) + "\n");
  }
}

/** Starts code-server on a free loopback port (port 0: the kernel picks, code-server prints it, no
 * race) and resolves once /healthz answers. */
export async function startCodeServer(dirs: CodeServerDirs, workspace: string, env: Record<string, string>, timeoutMs = 60_000): Promise<CodeServer> {
  const args = [
    ...commonArgs(dirs),
    "--bind-addr",
    "127.0.0.1:0",
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    workspace,
  ];
  // Its own process group, so a kill reaches what it started even if /proc walking misses a pid.
  const proc = spawn(e2ePaths.node, args, { env, cwd: dirs.home, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const pid = proc.pid;
  if (pid === undefined) throw new Error("failed to spawn code-server");
  const logFile = createWriteStream(join(dirs.root, "code-server.log"));
  let out = "";
  const onData = (b: Buffer) => {
    out += b.toString("utf8");
    logFile.write(b);
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  const server: CodeServer = {
    url: "",
    pid,
    output: () => out,
    kill: () => {
      killTree(pid);
      logFile.end();
    },
  };
  try {
    server.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not print its address within ${timeoutMs} ms:\n${out}`)), timeoutMs);
      const check = () => {
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      proc.stdout!.on("data", check);
      proc.stderr!.on("data", check);
      proc.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      proc.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before listening:\n${out}`));
      });
    });
    await waitForHealthz(server.url, timeoutMs);
    return server;
  } catch (err) {
    server.kill();
    throw err;
  }
}

async function waitForHealthz(url: string, timeoutMs: number): Promise<void> {
  let last = "";
  // Polling is the only way to see an HTTP server become ready; it usually is at the first try.
  await pollUntil(
    async () => {
      try {
        const res = await fetch(`${url}/healthz`);
        last = `HTTP ${res.status}`;
        return res.ok;
      } catch (err) {
        last = (err as Error).message;
        return false;
      }
    },
    () => `${url}/healthz to answer (${last})`,
    timeoutMs,
  );
}

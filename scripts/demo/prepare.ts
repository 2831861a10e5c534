// Lays out one demo run's throwaway folder, before anything starts: a copy of the sample
// workspace, code-server's profile (settings for a person, not a test), a HOME pre-seeded for the
// CLI, the `claude` wrapper pointing at the demo model, and the model's script. Nothing here
// touches the repository or the real HOME; the whole folder goes when the demo stops.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { posixQuote } from "../../src/core/util/posixQuote";
import { codeServerDirs, codeServerEnv, DETERMINISTIC_SETTINGS, type CodeServerDirs, writeSettings } from "../../test/e2e/codeServer";
import { writeClaudeWrapper } from "../../test/rig/claudeWrapper";
import { claudeBinary } from "../../test/rig/cli-binary";
import { createHome } from "../../test/rig/home";
import { demoScript } from "./demoModel";
import { makeDemoRepository } from "./demoRepository";

export const repoRoot = resolve(__dirname, "../..");

/** The demo model's port inside the namespace. Fixed, because the namespace is new and empty:
 * nothing else can hold it, and the `claude` wrapper can be written before anything starts. */
export const MODEL_PORT = 4100;

/** What the CLI shows as its model. */
/** A model id the CLI knows (an unknown one makes it warn "isn't recognized … update Claude Code"
 * in every terminal). Only the id: every reply comes from the scripted demo model, never Claude. */
export const DEMO_MODEL_NAME = "claude-haiku-4-5";

/** Settings for a person trying Arcadia: the test harness's quiet ones (no telemetry, updates,
 * tips, AI chat side bar; terminal text in the DOM, which any browser draws), plus a few that
 * make the first screen explain itself. */
export const DEMO_SETTINGS: Record<string, unknown> = {
  ...DETERMINISTIC_SETTINGS,
  // The sample workspace's README says what to do; it opens (as a preview) at start.
  "workbench.startupEditor": "readme",
  "window.title": "Arcadia demo — ${rootName}",
  "terminal.integrated.defaultProfile.linux": "bash",
  // Terminals open as editor tabs, so the Arcadia panel below stays in view while you type.
  "terminal.integrated.defaultLocation": "editor",
  // Page reloads keep the terminals (and their claude) alive, as in a normal VS Code.
  "terminal.integrated.enablePersistentSessions": true,
  // One more way to notice the card: a toast when an agent in a hidden terminal finishes.
  "arcadia.notify": true,
};

export interface DemoRun {
  root: string;
  dirs: CodeServerDirs;
  workspace: string;
  /** code-server's unix socket; the host side's proxy connects to it. */
  socket: string;
  scriptFile: string;
  /** Environment for the namespace: code-server's clean one (terminals and the extension host
   * inherit it), plus what the namespace's init script needs (DEMO_*, unset before use). */
  env: Record<string, string>;
}

export function prepareRun(opts: { keep: boolean }): DemoRun {
  // Short on purpose: code-server's socket and VS Code's own sockets (in TMPDIR below) must fit
  // the 108-byte limit of a unix socket path.
  const base = (process.env.TMPDIR ?? "").length > 0 && (process.env.TMPDIR ?? "").length < 40 ? tmpdir() : "/tmp";
  const root = realpathSync(mkdtempSync(join(base, "arcadia-demo-")));
  const dirs = codeServerDirs(root);

  // Inside HOME, like a real project: the CLI shows it as ~/tiny-greeter.
  const workspace = join(dirs.home, "tiny-greeter");
  cpSync(join(repoRoot, "demo", "workspace"), workspace, { recursive: true });
  makeDemoRepository(workspace);
  // Seeded so the CLI starts straight into its prompt: onboarding done, this folder trusted, the
  // (fake, offline) API key approved. HOME is what the extension host sees too, so Arcadia reads
  // transcripts from <home>/.claude/projects/.
  createHome(workspace, { home: dirs.home });
  const binDir = join(root, "bin");
  // The pinned CLI; `npm run demo` installed and checked it before (no network from here on).
  const claude = writeClaudeWrapper(binDir, { modelUrl: `http://127.0.0.1:${MODEL_PORT}`, binary: claudeBinary() });
  // Terminals: a readable prompt, and `claude` typed by hand is the wrapper too. Set here, not
  // only in code-server's env: VS Code takes the terminals' PATH from a login shell (/etc/profile).
  writeFileSync(
    join(dirs.home, ".bashrc"),
    `export PATH=${posixQuote(binDir)}:"$PATH"\nPS1='\\[\\e[32m\\]demo\\[\\e[0m\\]:\\W\\$ '\n`,
  );

  const modelDir = join(root, "model");
  mkdirSync(modelDir);
  const scriptFile = join(modelDir, "script.json");
  writeFileSync(scriptFile, JSON.stringify(demoScript(new Date()), null, 2) + "\n");

  mkdirSync(join(dirs.userDataDir, "User"), { recursive: true });
  // The extension host's PATH comes from a login shell too, so Arcadia is told where `claude` is.
  const settings = {
    ...DEMO_SETTINGS,
    "arcadia.claudePath": claude,
    "arcadia.extraArgs": ["--model", DEMO_MODEL_NAME],
  };
  // claudePath and extraArgs are machine settings (a workspace cannot set them): writeSettings puts them where code-server reads those.
  writeSettings(dirs, settings);
  // An explicit config file: otherwise code-server writes one (with a password) under XDG_CONFIG_HOME.
  writeFileSync(join(root, "code-server.yaml"), "auth: none\ncert: false\n");

  const env = codeServerEnv(dirs, {
    // `claude` in every terminal is the wrapper: the pinned CLI, offline, against the demo model.
    PATH: `${binDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    // Foreground sub-agents: the helper's tools show under its parent on the card, and the
    // parent's turn waits for it (a background one would end the turn first).
    CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1",
  });
  return {
    root,
    dirs,
    workspace,
    socket: join(root, "code-server.sock"),
    scriptFile,
    env: { ...env, DEMO_KEEP: opts.keep ? "1" : "0" },
  };
}

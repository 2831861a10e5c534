/**
 * One e2e window with agents: a throwaway workspace and HOME (trusted, onboarded), the scripted
 * model, the `claude` wrapper pointing at it, and code-server with the packaged extension —
 * what every agent scenario sets up the same way. Each scenario file opens its own.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { writeClaudeWrapper } from "../rig/claudeWrapper.js";
import { createHome } from "../rig/home.js";
import { startModelServer, type ModelServer } from "../rig/model-server.js";
import type { Script } from "../rig/script.js";
import { startVsCode, type VsCode } from "./harness";

export interface AgentWindow {
  root: string;
  workspace: string;
  home: string;
  model: ModelServer;
  /** The `claude` wrapper (given to Arcadia by `arcadia.claudePath`, unless `wrapClaude` made another). */
  claude: string;
  vs: VsCode;
  page: Page;
  close(): Promise<void>;
}

export interface AgentWindowOptions {
  /** Prefix of the temp folder, e.g. "edges". */
  name: string;
  /** The model's script (a function when it names files in the workspace). */
  script: Script | ((workspace: string) => Script);
  /** User settings beside `arcadia.claudePath`. */
  settings?: Record<string, unknown>;
  /** Environment beside HOME (e.g. a git identity). */
  extraEnv?: Record<string, string>;
  /** Runs on the workspace (README.md written) before the window opens, e.g. `git init`. */
  prepareWorkspace?: (workspace: string) => void;
  /** Runs on HOME (seeded: trusted, onboarded) before the window opens, e.g. cached feature flags. */
  prepareHome?: (home: string) => void;
  /** More environment for the `claude` the wrapper starts. */
  cliEnv?: Record<string, string>;
  /** More extensions installed after Arcadia. */
  moreVsix?: string[];
  /** Another build of Arcadia (default: dist/arcadia.vsix), e.g. an older one to compare with. */
  vsix?: string;
  /** The `claude` Arcadia is given instead of the wrapper, made from it (e.g. one that runs a simulated CLI in some terminals). */
  wrapClaude?: (wrapper: string, root: string) => string;
}

export async function openAgentWindow(options: AgentWindowOptions): Promise<AgentWindow> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `${options.name}-`)));
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(workspace, "README.md"), "# Sample workspace\n");
  options.prepareWorkspace?.(workspace);
  createHome(workspace, { home });
  options.prepareHome?.(home);
  const model = await startModelServer({ script: typeof options.script === "function" ? options.script(workspace) : options.script });
  // The extension host gets a PATH from the login shell, not ours: the wrapper goes by its path.
  // Sub-agents in the foreground: the Agent call runs until its sub-agent is done.
  const claude = writeClaudeWrapper(join(root, "bin"), { modelUrl: model.url, env: { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1", ...options.cliEnv } });
  const given = options.wrapClaude?.(claude, root) ?? claude;
  const vs = await startVsCode({
    workspace,
    extraEnv: { HOME: home, ...options.extraEnv },
    settings: { "arcadia.claudePath": given, ...options.settings },
    moreVsix: options.moreVsix,
    ...(options.vsix ? { vsix: options.vsix } : {}),
  });
  return {
    root,
    workspace,
    home,
    model,
    claude,
    vs,
    page: vs.page,
    close: async () => {
      await vs.close();
      await model.close();
      // ARCADIA_E2E_KEEP=1 keeps the workspace and the agents' home (their transcripts) to read after a failure.
      if (process.env.ARCADIA_E2E_KEEP !== "1") rmSync(root, { recursive: true, force: true });
    },
  };
}

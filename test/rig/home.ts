// Throwaway HOME for one CLI run, pre-seeded so no first-run screen (onboarding, trust dialog,
// API-key approval, auto-mode nudge) blocks the terminal. The real ~/.claude is never used.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Any string works offline; it only has to look like a key for the approval check. */
export const TEST_API_KEY = "sk-ant-api03-arcadia-rig-offline-test-key-000000000000";

export interface RigHome {
  home: string;
  /** `<home>/.claude`: transcripts go to `<configDir>/projects/<slug>/`. */
  configDir: string;
  apiKey: string;
}

// The CLI's folder name for a workspace: the engine's own rule, so the rig and Arcadia agree.
export { projectSlug } from "../../src/core/transcript/projectDir";

/** Creates (or seeds an existing) throwaway HOME trusted for `workspaceDir`. */
export function createHome(workspaceDir: string, opts: { home?: string; apiKey?: string } = {}): RigHome {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), "arcadia-home-"));
  const apiKey = opts.apiKey ?? TEST_API_KEY;
  const configDir = join(home, ".claude");
  mkdirSync(configDir, { recursive: true });
  const config = {
    hasCompletedOnboarding: true, // also skips a connectivity check that hangs offline
    projects: { [realpathSync(workspaceDir)]: { hasTrustDialogAccepted: true } },
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    hasSeenAutoDefaultNudge: true,
  };
  writeFileSync(join(home, ".claude.json"), JSON.stringify(config, null, 2) + "\n");
  return { home, configDir, apiKey };
}

/** What keeps the CLI quiet and offline-friendly, whoever launches it (rig, e2e wrapper, demo). */
export const CLI_SAFETY_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  // A dead model server must fail a test fast, not after ~3 minutes of retries.
  CLAUDE_CODE_MAX_RETRIES: "2",
};

/** The safe environment every rig CLI runs with. Built from scratch (not process.env) so the
 * caller's Claude/Anthropic variables, IS_SANDBOX and the like never leak into the CLI. */
export function cliEnv(home: RigHome, extra: Record<string, string> = {}): Record<string, string> {
  const keep = ["PATH", "LANG", "PYENV_ROOT", "TMPDIR", "NODE_EXTRA_CA_CERTS"];
  const env: Record<string, string> = {};
  for (const k of keep) if (process.env[k]) env[k] = process.env[k]!;
  return {
    ...env,
    HOME: home.home,
    USER: "user",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    ANTHROPIC_API_KEY: home.apiKey,
    ...CLI_SAFETY_ENV,
    ...extra,
  };
}

/**
 * The `sandbox` block Arcadia writes into an agent's per-launch `--settings` file, so the agent's
 * own Bash tool runs in Claude Code's sandbox (bubblewrap + socat on Linux, Seatbelt on macOS) and,
 * inside it, without a prompt. Pure: the caller says where the agent works, where home is, what the
 * user allowed and what the user's own settings already say (userSandboxSettings.ts).
 *
 * Every choice, and why (verified with CLI 2.1.332, docs/cli-sandbox.md):
 * - `failIfUnavailable: true`: a sandbox that cannot start must stop the CLI, never fall back to
 *   running commands unsandboxed with nobody told.
 * - `autoAllowBashIfSandboxed: true`: the point of the sandbox (no prompt for what cannot reach out),
 *   unless the user's own settings say false: `--settings` outranks them, and writing true would
 *   loosen the user's choice.
 * - `allowUnsandboxedCommands`: left to the CLI's default (true) so a `dangerouslyDisableSandbox`
 *   request reaches the user as a permission prompt (on the card); the user's false is kept.
 * - network: only the hosts the user named, and `strictAllowlist` so any other host is refused
 *   rather than asked about.
 * - filesystem: writes only in the agent's folder; reads of the whole home folder denied (other
 *   projects, `~/.ssh`, `~/.aws`, `~/.config`, `~/.claude*`) with the agent's folder and the
 *   toolchain folders given back. When the agent's folder is home or above it, the home deny would
 *   be given back whole, so then only the named secret folders are denied.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { HOME_SECRETS } from "../util";
import type { UserSandboxSettings } from "./userSandboxSettings";

export type AgentSandboxChoice = "on" | "off";

export interface AgentSandboxInput {
  choice: AgentSandboxChoice;
  /** The agent's folder: the workspace folder, or its worktree. The only place it may write. */
  agentFolder: string;
  home: string;
  /** Hosts sandboxed commands may reach (the user's arcadia.agentSandboxAllowedDomains). */
  allowedDomains: readonly string[];
  /** Folders to give back for reading inside home: the toolchains on PATH, the user's readable paths. */
  readableFolders: readonly string[];
  /** What the user's own Claude settings say (never loosened). */
  user: UserSandboxSettings;
}

/** The CLI's `sandbox` settings (the subset Arcadia writes). */
export interface CliSandboxSettings {
  enabled: true;
  failIfUnavailable: true;
  autoAllowBashIfSandboxed: boolean;
  allowUnsandboxedCommands?: false;
  network: { allowedDomains: string[]; strictAllowlist: true };
  filesystem: { allowWrite: string[]; denyRead: string[]; allowRead: string[] };
}

/** `undefined` for "off": Arcadia then adds nothing and the user's own settings apply as they are. */
export function agentSandboxSettings(input: AgentSandboxInput): CliSandboxSettings | undefined {
  if (input.choice === "off") return undefined;
  const home = resolve(input.home);
  const folder = resolve(input.agentFolder);
  const secrets = HOME_SECRETS.map((name) => resolve(home, name));
  const homeIsInside = isWithin(home, folder);
  const readable = homeIsInside
    ? []
    : [
        folder,
        ...input.readableFolders
          .filter((p) => isAbsolute(p))
          .map((p) => resolve(p))
          .filter((p) => givenBack(p, home, secrets)),
      ];
  const settings: CliSandboxSettings = {
    enabled: true,
    failIfUnavailable: true,
    autoAllowBashIfSandboxed: input.user.autoAllowBashIfSandboxed !== false && input.user.problems.length === 0,
    network: { allowedDomains: unique(input.allowedDomains.map((d) => d.trim()).filter(Boolean)), strictAllowlist: true },
    filesystem: { allowWrite: [folder], denyRead: homeIsInside ? secrets : [home, ...secrets], allowRead: unique(readable) },
  };
  if (input.user.allowUnsandboxedCommands === false) settings.allowUnsandboxedCommands = false;
  return settings;
}

/** A folder given back for reading: inside home (outside it nothing is denied), not home itself, and no secret folder or one holding one. */
function givenBack(path: string, home: string, secrets: readonly string[]): boolean {
  if (!isWithin(path, home) || path === home) return false;
  return !secrets.some((secret) => isWithin(path, secret) || isWithin(secret, path));
}

/** `inner` is `outer` or inside it. */
function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

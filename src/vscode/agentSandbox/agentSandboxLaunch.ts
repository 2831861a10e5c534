/**
 * The sandbox part of an agent's launch: its choice (the launch request's, else
 * `arcadia.agentSandbox`), whether Claude Code's sandbox can run here, and the CLI's `sandbox`
 * settings for the agent's folder (core/agentSandbox), bounded by the user's own Claude settings,
 * which are read and never written. Where the sandbox cannot run, the agent starts without it (its
 * shell commands ask, as before) and `onUnavailable` tells once per launch (the panel's notice
 * shows each reason once); a user settings file that cannot be read is logged with what to do.
 */
import which from "which";
import { homedir } from "node:os";
import { join } from "node:path";
import { vscode } from "../api";
import {
  agentSandboxAvailability,
  agentSandboxSettings,
  readUserSandboxSettings,
  toolchainFolders,
  type AgentSandboxAvailability,
  type AgentSandboxChoice,
  type CliSandboxSettings,
} from "../../core/agentSandbox";
import { Emitter } from "../../core/util";
import type { Log } from "../../agents/ports";

export type AgentSandboxUnavailable = Extract<AgentSandboxAvailability, { available: false }>;

/** A launch's sandbox: its settings, or why an agent meant to be sandboxed is not (for its card); undefined: off. */
export type AgentSandboxOutcome = { settings: CliSandboxSettings } | { missing: string } | undefined;

const CHOICES: readonly AgentSandboxChoice[] = ["on", "off"];

/** `arcadia.agentSandbox`; an unknown value keeps the default ("on"): a typo must not switch the sandbox off. */
export function agentSandboxChoice(): AgentSandboxChoice {
  const value = vscode.workspace.getConfiguration("arcadia").get<string>("agentSandbox", "on");
  return CHOICES.includes(value as AgentSandboxChoice) ? (value as AgentSandboxChoice) : "on";
}

function strings(name: string): string[] {
  const value = vscode.workspace.getConfiguration("arcadia").get<unknown>(name, []);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export class AgentSandboxLaunch {
  private readonly unavailable = new Emitter<AgentSandboxUnavailable>();
  readonly onUnavailable = this.unavailable.event;

  constructor(private readonly log: Log) {}

  /** The CLI's sandbox settings for an agent in `cwd`; why not, where it cannot run here; undefined when off. */
  async settingsFor(cwd: string, requested?: AgentSandboxChoice): Promise<AgentSandboxOutcome> {
    const choice = requested ?? agentSandboxChoice();
    if (choice === "off") return undefined;
    const find = async (name: string) => (await which(name, { nothrow: true, path: process.env.PATH ?? "" })) ?? undefined;
    const [bwrap, socat] = process.platform === "linux" ? await Promise.all([find("bwrap"), find("socat")]) : [undefined, undefined];
    const availability = agentSandboxAvailability(process.platform, { bwrap, socat });
    if (!availability.available) {
      this.log.warn(`Agent sandbox: ${availability.reason}. ${availability.fix}`);
      this.unavailable.fire(availability);
      // Linux: the card says what to install. Windows: off, said once by the notice alone.
      return process.platform === "linux" ? { missing: `${availability.reason}. ${availability.fix}` } : undefined;
    }
    const home = homedir();
    const user = await readUserSandboxSettings(home, cwd);
    for (const problem of user.problems) this.log.warn(`Agent sandbox: ${problem}`);
    const extra = strings("sandboxReadablePaths").map((p) => (p.startsWith("~/") ? join(home, p.slice(2)) : p));
    const settings = agentSandboxSettings({
      choice,
      agentFolder: cwd,
      home,
      allowedDomains: strings("agentSandboxAllowedDomains"),
      readableFolders: [...(await toolchainFolders(process.env.PATH ?? "")), ...extra],
      user,
    });
    return settings ? { settings } : undefined;
  }

  dispose(): void {
    this.unavailable.dispose();
  }
}

/**
 * The `sandbox` settings an agent's --settings file gets for each choice, and how the user's own
 * sandbox settings bound them: Arcadia never writes a value looser than the user's.
 */
import { describe, expect, it } from "vitest";
import { agentSandboxSettings, type AgentSandboxInput } from "../../../src/core/agentSandbox";
import { HOME_SECRETS } from "../../../src/core/util";

const HOME = "/home/dev";
const base: AgentSandboxInput = {
  choice: "on",
  agentFolder: "/home/dev/src/app",
  home: HOME,
  allowedDomains: [],
  readableFolders: [],
  user: { problems: [] },
};
const secrets = HOME_SECRETS.map((name) => `${HOME}/${name}`);

describe("the sandbox settings of a launched agent", () => {
  it("off: nothing is written, so the user's own settings apply as they are", () => {
    expect(agentSandboxSettings({ ...base, choice: "off" })).toBeUndefined();
  });

  it("on: sandboxed, no prompt inside it, no start without it, no network, writes only in the agent's folder, home unreadable but that folder", () => {
    expect(agentSandboxSettings(base)).toEqual({
      enabled: true,
      failIfUnavailable: true,
      autoAllowBashIfSandboxed: true,
      network: { allowedDomains: [], strictAllowlist: true },
      filesystem: { allowWrite: ["/home/dev/src/app"], denyRead: [HOME, ...secrets], allowRead: ["/home/dev/src/app"] },
    });
  });

  it("the secrets named in the issue are among the denied reads", () => {
    const denied = agentSandboxSettings(base)!.filesystem.denyRead;
    for (const name of [".ssh", ".aws", ".config", ".claude", ".claude.json"]) expect(denied).toContain(`${HOME}/${name}`);
  });

  it("an agent working in home itself is denied every secret the command sandbox hides: credentials of other tools and shell histories too", () => {
    const denied = agentSandboxSettings({ ...base, agentFolder: HOME })!.filesystem.denyRead;
    for (const name of [".pypirc", ".azure", ".cargo/credentials.toml", ".local/share/keyrings", ".bash_history", ".zsh_history", ".yarnrc.yml"]) {
      expect(denied).toContain(`${HOME}/${name}`);
    }
  });

  it("a worktree agent writes only its worktree", () => {
    const settings = agentSandboxSettings({ ...base, agentFolder: "/home/dev/src/app/.claude/worktrees/fix-1" })!;
    expect(settings.filesystem.allowWrite).toEqual(["/home/dev/src/app/.claude/worktrees/fix-1"]);
    expect(settings.filesystem.allowRead).toEqual(["/home/dev/src/app/.claude/worktrees/fix-1"]);
  });

  it("the hosts the user named are the only ones reachable, trimmed and once each", () => {
    const settings = agentSandboxSettings({ ...base, allowedDomains: [" registry.npmjs.org", "registry.npmjs.org", "", "*.pypi.org"] })!;
    expect(settings.network).toEqual({ allowedDomains: ["registry.npmjs.org", "*.pypi.org"], strictAllowlist: true });
  });

  it("toolchain folders in home are given back for reading, but never home itself, a secret folder, one inside it or one holding it, or a relative one", () => {
    const settings = agentSandboxSettings({
      ...base,
      readableFolders: ["/home/dev/.nvm/versions/node/v20/bin", HOME, "/home/dev/.config/nvm", "/home/dev/.aws/..", "/usr/bin", "/home", ".", "bin"],
    })!;
    expect(settings.filesystem.allowRead).toEqual(["/home/dev/src/app", "/home/dev/.nvm/versions/node/v20/bin"]);
  });

  it("an agent whose folder is home (or above it) cannot have home denied whole: then only the secret folders are", () => {
    for (const folder of [HOME, "/home"]) {
      const settings = agentSandboxSettings({ ...base, agentFolder: folder, readableFolders: ["/home/dev/.nvm"] })!;
      expect(settings.filesystem.denyRead).toEqual(secrets);
      // Nothing is given back: an allowRead of home would re-open the secrets inside it.
      expect(settings.filesystem.allowRead).toEqual([]);
      expect(settings.filesystem.allowWrite).toEqual([folder]);
    }
  });
});

describe("merged with the user's own sandbox settings, never looser", () => {
  it("the user's autoAllowBashIfSandboxed: false keeps sandboxed commands asking", () => {
    expect(agentSandboxSettings({ ...base, user: { autoAllowBashIfSandboxed: false, problems: [] } })!.autoAllowBashIfSandboxed).toBe(false);
  });

  it("the user's allowUnsandboxedCommands: false is kept (a request to leave the sandbox is then ignored, not asked)", () => {
    expect(agentSandboxSettings({ ...base, user: { allowUnsandboxedCommands: false, problems: [] } })!.allowUnsandboxedCommands).toBe(false);
  });

  it("the user's true values change nothing Arcadia writes (no allowUnsandboxedCommands: true is ever written)", () => {
    const settings = agentSandboxSettings({ ...base, user: { autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: true, problems: [] } })!;
    expect(settings.autoAllowBashIfSandboxed).toBe(true);
    expect("allowUnsandboxedCommands" in settings).toBe(false);
  });

  it("a settings file that could not be read may have said false: commands keep asking", () => {
    const settings = agentSandboxSettings({ ...base, user: { problems: ["/home/dev/.claude/settings.json is not valid JSON"] } })!;
    expect(settings.autoAllowBashIfSandboxed).toBe(false);
    expect(settings.failIfUnavailable).toBe(true);
  });

  it("the user's sandbox off does not stop Arcadia's (turning it on is tighter), and Arcadia's off leaves the user's on alone", () => {
    expect(agentSandboxSettings({ ...base, user: { problems: [] } })!.enabled).toBe(true);
    expect(agentSandboxSettings({ ...base, choice: "off", user: { autoAllowBashIfSandboxed: true, problems: [] } })).toBeUndefined();
  });
});

/** The user's own sandbox settings, read from their Claude settings files (never written), and what a bad file does; the toolchain folders given back. */
import { chmodSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeSettingsFiles, readUserSandboxSettings, toolchainFolders, userSandboxFromTexts } from "../../../src/core/agentSandbox";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("the user's own sandbox settings", () => {
  it("a false in any file wins over a true in another", () => {
    const result = userSandboxFromTexts([
      { path: "user", text: JSON.stringify({ sandbox: { autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: true } }) },
      { path: "local", text: JSON.stringify({ sandbox: { autoAllowBashIfSandboxed: false } }) },
    ]);
    expect(result).toEqual({ autoAllowBashIfSandboxed: false, allowUnsandboxedCommands: true, problems: [] });
  });

  it("missing files, empty files and files without a sandbox say nothing", () => {
    expect(
      userSandboxFromTexts([
        { path: "a", text: undefined },
        { path: "b", text: "  " },
        { path: "c", text: '{"hooks":{}}' },
      ]),
    ).toEqual({ problems: [] });
  });

  it("a malformed file or sandbox value is a problem naming the file and what to do, and nothing throws", () => {
    const result = userSandboxFromTexts([
      { path: "/h/.claude/settings.json", text: '{"sandbox": {"autoAllowBashIfSandboxed": fals' },
      { path: "/w/.claude/settings.json", text: '{"sandbox": "on"}' },
      { path: "/w/.claude/settings.local.json", text: undefined, readError: "EACCES: permission denied" },
    ]);
    expect(result.problems).toHaveLength(3);
    expect(result.problems[0]).toMatch(/^\/h\/\.claude\/settings\.json is not valid JSON .*fix it/);
    expect(result.problems[1]).toMatch(/^\/w\/\.claude\/settings\.json: "sandbox" is not an object; fix it/);
    expect(result.problems[2]).toMatch(/^\/w\/\.claude\/settings\.local\.json could not be read \(EACCES/);
  });

  it("reads the user's, the project's and the local file from disk, and leaves each byte as it was", async () => {
    const home = tempDir();
    const folder = tempDir();
    mkdirSync(join(home, ".claude"));
    mkdirSync(join(folder, ".claude"));
    const userText = JSON.stringify({ sandbox: { allowUnsandboxedCommands: false } });
    writeFileSync(join(home, ".claude", "settings.json"), userText);
    writeFileSync(join(folder, ".claude", "settings.local.json"), JSON.stringify({ sandbox: { autoAllowBashIfSandboxed: false } }));
    const before = process.env.CLAUDE_CONFIG_DIR;
    delete process.env.CLAUDE_CONFIG_DIR;
    try {
      expect(claudeSettingsFiles(home, folder)).toEqual([
        join(home, ".claude", "settings.json"),
        join(folder, ".claude", "settings.json"),
        join(folder, ".claude", "settings.local.json"),
      ]);
      expect(await readUserSandboxSettings(home, folder)).toEqual({ autoAllowBashIfSandboxed: false, allowUnsandboxedCommands: false, problems: [] });
    } finally {
      if (before !== undefined) process.env.CLAUDE_CONFIG_DIR = before;
    }
    expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toBe(userText);
  });
});

describe("the toolchain folders given back", () => {
  it("are the PATH entries, where their links lead, and the installation of the first node on PATH", async () => {
    const root = realpathSync(tempDir());
    const prefix = join(root, "nvm", "versions", "node", "v20");
    mkdirSync(join(prefix, "bin"), { recursive: true });
    writeFileSync(join(prefix, "bin", "node"), "#!/bin/sh\n");
    chmodSync(join(prefix, "bin", "node"), 0o755);
    symlinkSync(join(prefix, "bin"), join(root, "shim"));
    const folders = await toolchainFolders([join(root, "shim"), "/usr/bin"].join(":"));
    expect(folders).toEqual([join(root, "shim"), "/usr/bin", join(prefix, "bin"), "/usr/bin", prefix]);
  });
});

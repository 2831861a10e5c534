import { describe, expect, it } from "vitest";
import { shellCommandLine } from "../../src/vscode/shellQuote";

describe("shellCommandLine", () => {
  it("leaves plain words alone", () => {
    expect(shellCommandLine("claude", ["--session-id", "0b1c-22"], "/bin/bash")).toBe("claude --session-id 0b1c-22");
  });
  it("quotes for POSIX shells", () => {
    expect(shellCommandLine("/opt/my tools/claude", ["--append-system-prompt", "it's fine"], "/usr/bin/zsh")).toBe(
      `'/opt/my tools/claude' --append-system-prompt 'it'\\''s fine'`,
    );
  });
  it("quotes for PowerShell and calls a quoted path with &", () => {
    expect(shellCommandLine("C:\\Program Files\\claude.exe", ["--x", "a b"], "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe")).toBe(
      `& 'C:\\Program Files\\claude.exe' --x 'a b'`,
    );
  });
  it("quotes for cmd", () => {
    expect(shellCommandLine("claude", ["say \"hi\""], "C:\\Windows\\System32\\cmd.exe")).toBe(`claude "say ""hi"""`);
  });
});

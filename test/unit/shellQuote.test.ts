import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isPlainWord, posixQuote } from "../../src/core/util/posixQuote";
import { shellCommandLine } from "../../src/vscode/shellQuote";

/** The arguments as `shell` receives them from `line` (printed NUL-separated, so newlines survive). */
function argsAsShellReads(shell: string, line: string): string[] {
  const out = spawnSync(shell, ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" });
  expect(out.stderr).toBe("");
  return out.stdout.split("\0").slice(0, -1);
}

const AWKWARD = [
  "",
  "-n",
  "--name=x",
  "it's",
  "'",
  "café ☕ 名前",
  "a\nb",
  "$HOME",
  "`id`",
  "$(id)",
  "*",
  "a b",
  "\\",
  "!x",
  "~",
  "=ls",
  "x;y",
  'a"b',
  "plain-word_1.2",
];

describe("posixQuote", () => {
  it.each(["sh", "bash"])("every argument reaches %s unchanged: empty, leading '-', quotes, non-ASCII, newlines, expansions", (shell) => {
    expect(argsAsShellReads(shell, AWKWARD.map(posixQuote).join(" "))).toEqual(AWKWARD);
  });
  it("leaves plain words readable and quotes the empty string, so it is not lost", () => {
    expect(posixQuote("--session-id")).toBe("--session-id");
    expect(posixQuote("/usr/bin/claude")).toBe("/usr/bin/claude");
    expect(posixQuote("")).toBe("''");
  });
  it("quotes a leading '=' (zsh would replace =ls with the path of ls) but not one inside a word", () => {
    expect(isPlainWord("=ls")).toBe(false);
    expect(posixQuote("=ls")).toBe("'=ls'");
    expect(posixQuote("--name=x")).toBe("--name=x");
  });
});

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
    expect(shellCommandLine("claude", ['say "hi"'], "C:\\Windows\\System32\\cmd.exe")).toBe(`claude "say ""hi"""`);
  });
});

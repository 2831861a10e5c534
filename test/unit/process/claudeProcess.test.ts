/**
 * From a terminal's shell to its `claude`, on a fake process table: the CLI may be a native
 * binary or node running cli.js, below wrappers, and may itself run a nested `claude -p`.
 */
import { describe, expect, it } from "vitest";
import { findClaude, looksLikeClaude } from "../../../src/core/process/claudeProcess";
import type { ProcessInfo } from "../../../src/core/process/processTable";

const proc = (pid: number, ppid: number, name: string, commandLine?: string): ProcessInfo => ({
  pid,
  ppid,
  name,
  startTime: String(pid * 10),
  ...(commandLine ? { commandLine } : {}),
});

const noFiles = () => false;

describe("looksLikeClaude", () => {
  it("knows the native binary and node running Claude Code's script", () => {
    expect(looksLikeClaude(proc(1, 0, "claude"))).toBe(true);
    expect(looksLikeClaude(proc(1, 0, "claude.exe"))).toBe(true);
    expect(looksLikeClaude(proc(1, 0, "node", "node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js --resume x"))).toBe(true);
    expect(looksLikeClaude(proc(1, 0, "node", "/usr/bin/node /usr/local/bin/claude"))).toBe(true);
    expect(looksLikeClaude(proc(1, 0, "node", "node server.js --name claude-ish"))).toBe(false);
    expect(looksLikeClaude(proc(1, 0, "node"))).toBe(false);
    expect(looksLikeClaude(proc(1, 0, "vim", "vim /home/u/bin/claude"))).toBe(false);
  });
});

describe("findClaude", () => {
  it("finds the shell's claude child", () => {
    const table = [proc(100, 1, "bash"), proc(101, 100, "claude"), proc(102, 101, "node", "node mcp-server.js")];
    expect(findClaude(100, table, noFiles)?.process.pid).toBe(101);
  });

  it("finds it below a wrapper (npx, bash -c) and as a grandchild", () => {
    const npx = [
      proc(100, 1, "zsh"),
      proc(110, 100, "npm exec @anth", "npm exec @anthropic-ai/claude-code"),
      proc(111, 110, "sh", "sh -c claude"),
      proc(112, 111, "node", "node /home/u/.npm/_npx/1/node_modules/@anthropic-ai/claude-code/cli.js"),
    ];
    expect(findClaude(100, npx, noFiles)).toEqual({ process: npx[3], depth: 3 });
  });

  it("keeps two terminals apart", () => {
    const table = [proc(100, 1, "bash"), proc(200, 1, "bash"), proc(201, 200, "claude"), proc(101, 100, "claude")];
    expect(findClaude(100, table, noFiles)?.process.pid).toBe(101);
    expect(findClaude(200, table, noFiles)?.process.pid).toBe(201);
  });

  it("reports nothing for a shell running something else, or a shell that is gone", () => {
    const table = [proc(100, 1, "bash"), proc(101, 100, "npm", "npm run dev"), proc(102, 101, "node", "node vite.js")];
    expect(findClaude(100, table, noFiles)).toBeUndefined();
    expect(findClaude(999, table, noFiles)).toBeUndefined();
  });

  it("prefers the outer claude over a `claude -p` its tool runs", () => {
    const table = [proc(100, 1, "bash"), proc(101, 100, "claude"), proc(102, 101, "bash", "bash -c claude -p hi"), proc(103, 102, "claude")];
    expect(findClaude(100, table, (p) => p.pid === 101 || p.pid === 103)?.process.pid).toBe(101);
    expect(findClaude(100, table, noFiles)?.process.pid).toBe(101);
  });

  it("prefers the process with a status file over a wrapper script that is called claude", () => {
    // ~/bin/claude is a bash script that runs the real CLI without exec: both are named claude.
    const table = [proc(100, 1, "bash"), proc(101, 100, "claude", "/bin/bash /home/u/bin/claude"), proc(102, 101, "claude")];
    expect(findClaude(100, table, (p) => p.pid === 102)?.process.pid).toBe(102);
  });

  it("believes a status file whatever the process is called (a renamed binary)", () => {
    const table = [proc(100, 1, "bash"), proc(101, 100, "cc-2.1.330")];
    expect(findClaude(100, table, (p) => p.pid === 101)?.process.pid).toBe(101);
  });
});

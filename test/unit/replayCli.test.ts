/** `arcadia replay`: the JSON Lines contract, to the letter, and clear failures. */
import { execFileSync, spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cutAtCheckpoint, removeCuts, loadScenario, sessionFiles } from "../support/recorded";

afterAll(removeCuts);

const ROOT = resolve(__dirname, "../..");
const CLI = join(ROOT, "dist", "cli.js");

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, "esbuild.js")], { cwd: ROOT, stdio: "ignore" });
});

function replay(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "replay", ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("arcadia replay --json", () => {
  it("prints one line per tool call with exactly the contract's keys, then the final state", () => {
    const { code, stdout } = replay(...sessionFiles(loadScenario("several-tools")), "--json");
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    expect(lines.map((l) => Object.keys(l))).toEqual([
      ["kind", "id", "name", "label", "outcome", "parent"],
      ["kind", "id", "name", "label", "outcome", "parent"],
      ["kind", "id", "name", "label", "outcome", "parent"],
      ["kind", "status", "lastTurn", "activeTools"],
    ]);
    expect(lines[1]).toMatchObject({ kind: "tool", name: "Bash", label: "Running: echo hi", outcome: "done", parent: null });
    expect(lines[3]).toEqual({ kind: "final", status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("includes sub-agent tools with their Agent call as parent", () => {
    const lines = jsonLines(replay(...sessionFiles(loadScenario("subagent-foreground")), "--json").stdout);
    const agent = lines.find((l) => l.name === "Agent");
    expect(lines.find((l) => l.name === "Bash")).toMatchObject({ parent: agent?.id, outcome: "done" });
  });

  it("reads several files as consecutive sessions; final describes the last", () => {
    const lines = jsonLines(replay(...sessionFiles(loadScenario("clear")), "--json").stdout);
    expect(lines.filter((l) => l.kind === "tool").map((l) => l.label)).toEqual(["Running: echo one", "Running: echo two"]);
    expect(lines.at(-1)).toEqual({ kind: "final", status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("leaves a tool whose result is not in the transcript running", () => {
    const files = cutAtCheckpoint(loadScenario("escape-slow-tool"), "tool-running");
    const lines = jsonLines(replay(...files, "--json").stdout);
    const tool = lines[0] as { id: string; outcome: string };
    expect(tool.outcome).toBe("running");
    expect(lines.at(-1)).toEqual({ kind: "final", status: "active", lastTurn: "none", activeTools: [tool.id] });
  });

  it("advances past pending timers at the end of input (print mode ends its turn)", () => {
    const lines = jsonLines(replay(...sessionFiles(loadScenario("print-text")), "--json").stdout);
    expect(lines.at(-1)).toEqual({ kind: "final", status: "waiting", lastTurn: "completed", activeTools: [] });
  });
});

describe("arcadia replay, readable timeline", () => {
  it("tells the story of a session", () => {
    const { code, stdout } = replay(...sessionFiles(loadScenario("escape-slow-tool")));
    expect(code).toBe(0);
    expect(stdout).toMatch(/prompt: "Run the slow command"/);
    expect(stdout).toMatch(/▶ Running: python3/);
    expect(stdout).toMatch(/interrupted by the user during a tool/);
    expect(stdout).toMatch(/== final: status: waiting · last turn: interrupted · 0 tools running/);
  });
});

describe("arcadia replay, bad input", () => {
  it("a missing file: non-zero exit and one line saying which", () => {
    const { code, stdout, stderr } = replay("/no/such/session.jsonl", "--json");
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual(["arcadia replay: /no/such/session.jsonl: no such file"]);
  });

  it("a folder instead of a file: non-zero exit with a hint", () => {
    const { code, stderr } = replay(ROOT);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/is a folder; pass the \.jsonl transcript files inside it/);
  });

  it("no files: usage and a non-zero exit", () => {
    const { code, stderr } = replay();
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/usage: arcadia replay/);
  });
});

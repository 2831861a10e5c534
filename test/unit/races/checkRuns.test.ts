/**
 * The check command in members' worktrees, through the real process runner (the user's shell with
 * -c): its exit code and duration, the files it ran on, one run per member at a time, and a
 * command that cannot start said as such.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CheckRunner, CheckRuns } from "../../../src/core/races/checkRuns";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** The runner VS Code's CheckTerminals wraps, without the terminal. */
function processRunner(): CheckRunner & { output: Map<string, string> } {
  const output = new Map<string, string>();
  const runner = new ProcessCommandRunner({ onOutput: (id, chunk) => output.set(id, (output.get(id) ?? "") + chunk) });
  return {
    output,
    start: async ({ command, cwd }) => {
      const handle = await runner.start({ command, cwd });
      return { ended: handle.ended.then((end) => ({ exitCode: end.kind === "exited" ? (end.exitCode ?? null) : null })) };
    },
  };
}

describe("a race's check runs", () => {
  it("run the command in each worktree and keep how each ended, how long it took and the files it ran on", async () => {
    const [good, bad] = [tempDir(), tempDir()];
    writeFileSync(join(good, "App.tsx"), "good\n");
    writeFileSync(join(bad, "App.tsx"), "bad\n");
    const runner = processRunner();
    let clock = 1000;
    const runs = new CheckRuns(runner, () => (clock += 250));
    const seen: string[] = [];
    runs.onDidChange((key) => seen.push(`${key}:${runs.runningSince(key) === undefined ? "ended" : "running"}`));
    const command = "grep -q good App.tsx";
    const a = await runs.run({ key: "r/1", command, cwd: good, label: "t-1", tree: "aaa" });
    const b = await runs.run({ key: "r/2", command, cwd: bad, label: "t-2", tree: null });
    // The clock moved 250 ms from its start to its end.
    expect(a).toEqual({ ok: true, result: { exitCode: 0, durationMs: 250, finishedAt: 1500, tree: "aaa" } });
    expect(b).toMatchObject({ ok: true, result: { exitCode: 1, tree: null } });
    expect(seen.sort()).toEqual(["r/1:ended", "r/1:running", "r/2:ended", "r/2:running"]);
  });

  it("runs one check per member at a time: asked again while it runs, nothing more starts", async () => {
    let started = 0;
    let finish!: (code: number) => void;
    const runs = new CheckRuns({ start: async () => (started++, { ended: new Promise((resolve) => (finish = (exitCode) => resolve({ exitCode }))) }) });
    const first = runs.run({ key: "r/1", command: "x", cwd: "/", label: "t-1", tree: null });
    await Promise.resolve();
    expect(await runs.run({ key: "r/1", command: "x", cwd: "/", label: "t-1", tree: null })).toBeUndefined();
    expect(runs.runningSince("r/1")).toBeDefined();
    finish(3);
    expect(await first).toMatchObject({ ok: true, result: { exitCode: 3 } });
    expect(started).toBe(1);
    expect(runs.runningSince("r/1")).toBeUndefined();
  });

  it("says when the command cannot start at all, and runs nothing", async () => {
    const runs = new CheckRuns(processRunner());
    const outcome = await runs.run({ key: "r/1", command: "true", cwd: join(tempDir(), "gone"), label: "t-1", tree: null });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/could not start/) });
    expect(runs.runningSince("r/1")).toBeUndefined();
  });
});

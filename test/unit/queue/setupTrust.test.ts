/**
 * The setup of a queue task's worktree as the user meets it: their own setting runs; a repository's
 * setup file asks once per version and repository (yes or no remembered); the file read from a
 * real new worktree (git), with a message for each file it will not run; and a setup that fails or
 * hangs (real sh, killed past its timeout) stops that task with the end of its output while the
 * queue goes on to the next.
 */
import { spawn } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  addTasks,
  beginStart,
  MAX_ANSWERS_PER_REPO,
  newQueue,
  nextStart,
  outputTail,
  readAnswers,
  readRepoSetupFile,
  rememberAnswer,
  REPO_SETUP_FILE,
  type SetupEnd,
  setupFailure,
  setupHash,
  type SetupInputs,
  setupPlan,
  setupTimeoutMs,
  taskFailed,
  taskOf,
} from "../../../src/core/queue";
import { createWorktree } from "../../../src/core/git";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
process.env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const base: SetupInputs = { repo: "/work/app", userCommand: undefined, workspaceCommand: undefined, repoFile: undefined, answers: {} };

/** Runs a setup's argv as the wiring would: output interleaved, its process group killed past the timeout. */
function runSetup(argv: string[], cwd: string, timeoutMs: number): Promise<SetupEnd> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid!, "SIGKILL");
    }, timeoutMs);
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, timedOut, output, durationMs: Date.now() - started });
    });
  });
}

describe("which setup runs", () => {
  it("runs the user's own setting, and names a repository file it then does not run", () => {
    const plan = setupPlan({ ...base, userCommand: " npm ci ", repoFile: { text: "make deps\n" } });
    expect(plan).toMatchObject({ kind: "run", source: "user", argv: ["sh", "-c", "npm ci", "arcadia.worktree.setupCommand"] });
    expect(plan.notes).toEqual([`${REPO_SETUP_FILE} is not run: your setting arcadia.worktree.setupCommand is.`]);
  });

  it("runs nothing, and says nothing, with no setting and no file", () => {
    expect(setupPlan(base)).toEqual({ kind: "none", notes: [] });
  });

  it("remembers a yes and a no per version of the file, and runs a bash script with bash", () => {
    const text = "#!/usr/bin/env bash\nset -euo pipefail\nnpm ci\n";
    const first = setupPlan({ ...base, repoFile: { text } });
    expect(first).toMatchObject({ kind: "ask", hash: setupHash(text), argv: ["bash", "-c", text, REPO_SETUP_FILE] });
    expect(first.kind === "ask" && first.question).toBe(
      `This repository's ${REPO_SETUP_FILE} asks to run in each new worktree before its agent starts, as you, outside any sandbox. Run exactly this text?`,
    );
    const yes = rememberAnswer({}, base.repo, setupHash(text), "run");
    expect(setupPlan({ ...base, answers: yes, repoFile: { text } })).toMatchObject({ kind: "run", source: "repoFile" });
    const no = rememberAnswer(yes, base.repo, setupHash(text), "skip");
    expect(setupPlan({ ...base, answers: no, repoFile: { text } })).toEqual({
      kind: "none",
      notes: [`${REPO_SETUP_FILE} is not run: you said not to for this version of it.`],
    });
  });

  it("keeps the newest answers only, and reads kept answers leniently", () => {
    let answers = {};
    for (let i = 0; i < MAX_ANSWERS_PER_REPO + 5; i++) answers = rememberAnswer(answers, "/r", setupHash(`v${i}`), "run");
    const kept = readAnswers(JSON.parse(JSON.stringify(answers)))["/r"]!;
    expect(Object.keys(kept)).toHaveLength(MAX_ANSWERS_PER_REPO);
    expect(kept[setupHash(`v${MAX_ANSWERS_PER_REPO + 4}`)]).toBe("run");
    expect(kept[setupHash("v0")]).toBeUndefined();
    expect(readAnswers({ "/r": { "not-a-hash": "run", [setupHash("x")]: "always" }, "/s": 3 })).toEqual({});
    expect(readAnswers("junk")).toEqual({});
  });

  it("refuses a file it cannot show whole, with why", () => {
    expect(setupPlan({ ...base, repoFile: { problem: "too big" } })).toEqual({ kind: "refused", problem: "too big", notes: [] });
  });
});

describe("the setup file in a real new worktree", () => {
  function repoWith(files: Record<string, string | Buffer>): string {
    const root = realpathSync(tempDir());
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    writeFileSync(join(root, ".gitignore"), "/.claude/worktrees/\n");
    execFileSync("git", ["add", "-A"], { cwd: root });
    execFileSync("git", ["commit", "-q", "-m", "base"], { cwd: root });
    return root;
  }

  it("reads the file as the worktree has it, from its base commit", async () => {
    const root = repoWith({ [REPO_SETUP_FILE]: "npm ci\n" });
    writeFileSync(join(root, REPO_SETUP_FILE), "uncommitted change in the main checkout\n");
    const { path } = await createWorktree(root, "task-1");
    expect(await readRepoSetupFile(path)).toEqual({ text: "npm ci\n" });
    expect(await readRepoSetupFile(repoWith({ "a.txt": "a" }))).toBeUndefined();
  });

  it("says why it will not run a file too big to read through, or not text", async () => {
    const big = repoWith({ [REPO_SETUP_FILE]: "echo x\n".repeat(20_000) });
    expect(await readRepoSetupFile(big)).toEqual({
      problem: `${REPO_SETUP_FILE} is not run: it is 137 KB, more than the 64 KB a person can read through first.`,
    });
    const binary = repoWith({ [REPO_SETUP_FILE]: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]) });
    expect(await readRepoSetupFile(binary)).toEqual({ problem: `${REPO_SETUP_FILE} is not run: it is not text.` });
  });
});

describe("a setup that fails or hangs", () => {
  it("stops that task with the end of its output, and the queue starts the next", async () => {
    const cwd = tempDir();
    const end = await runSetup(["sh", "-c", "echo installing; echo 'npm ERR! missing: left-pad' >&2; exit 3"], cwd, 10_000);
    const failure = setupFailure(end, 10_000)!;
    expect(failure.problem).toMatch(/^Its setup failed \(exit code 3\) after \d+ s: its output is below\. Fix the setup, then retry the task\.$/);
    expect(failure.output).toBe("installing\nnpm ERR! missing: left-pad");
    let q = addTasks(newQueue("/repo", "main", 1), [{ text: "a" }, { text: "b" }]);
    q = beginStart(q, "q1", { worktree: "a", commit: "abc", now: 0 });
    expect(nextStart(q).start).toBeNull();
    q = taskFailed(q, "q1", failure.problem, 1, failure.output);
    expect(taskOf(q, "q1")).toMatchObject({ state: "failed", output: "installing\nnpm ERR! missing: left-pad" });
    expect(nextStart(q).start?.id).toBe("q2");
  });

  it("says a setup stopped past its timeout was stopped, and which setting sets the timeout", async () => {
    const cwd = tempDir();
    const end = await runSetup(["sh", "-c", "echo waiting for the registry; sleep 60 & wait"], cwd, 400);
    expect(end.timedOut).toBe(true);
    expect(setupFailure(end, 600_000)).toEqual({
      problem: "Its setup did not finish within 600 s and was stopped (arcadia.worktree.setupTimeoutSeconds): retry it, or raise the timeout.",
      output: "waiting for the registry",
    });
  });

  it("counts a clean exit as ready", () => {
    expect(setupFailure({ exitCode: 0, signal: null, timedOut: false, output: "ok", durationMs: 5 }, 1000)).toBeUndefined();
  });

  it("keeps the last 40 lines of a long output, where the error is", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\r\n") + "\n\n";
    const tail = outputTail(output).split("\n");
    expect(tail[0]).toBe("…");
    expect(tail.slice(1)).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i + 61}`));
  });

  it("takes a timeout setting out of range to the nearest allowed", () => {
    expect(setupTimeoutMs(undefined)).toBe(600_000);
    expect(setupTimeoutMs(1)).toBe(10_000);
    expect(setupTimeoutMs(1e9)).toBe(14_400_000);
    expect(setupTimeoutMs("120")).toBe(600_000);
  });
});

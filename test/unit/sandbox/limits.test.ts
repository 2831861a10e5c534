/**
 * The words that set a sandboxed command's limits just before its program, in both forms: dash's
 * own `ulimit` (where /bin/sh is dash) and util-linux's prlimit (elsewhere). Run for real (outside
 * bubblewrap: what is under test is the words), each must leave the program with the same limits,
 * soft and hard, its arguments exactly as given and no variable of its own in the environment.
 */
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LIMITS, type Limiter, limitsPrefix } from "../../../src/core/sandbox/limits";

const dash = existsSync("/usr/bin/dash") ? "/usr/bin/dash" : existsSync("/bin/dash") ? realpathSync("/bin/dash") : undefined;
const prlimit = existsSync("/usr/bin/prlimit") ? "/usr/bin/prlimit" : undefined;

function run(limiter: Limiter, program: string[]): string {
  const words = [...limitsPrefix(limiter), ...program];
  const done = spawnSync(words[0] as string, words.slice(1), { env: { PATH: "/usr/bin:/bin", A: "1" }, encoding: "utf8" });
  expect(done.status, done.stderr).toBe(0);
  return done.stdout;
}

const forms: [string, Limiter | undefined][] = [
  ["dash's ulimit", dash ? { kind: "dash", path: dash } : undefined],
  ["prlimit", prlimit ? { kind: "prlimit", path: prlimit } : undefined],
];

describe.each(forms)("limits set by %s", (_name, limiter) => {
  it.skipIf(limiter === undefined || process.platform !== "linux")("processes and address space limited, soft and hard", () => {
    const limits = run(limiter!, ["/bin/cat", "/proc/self/limits"]);
    expect(limits).toMatch(new RegExp(`Max processes\\s+${LIMITS.processes}\\s+${LIMITS.processes}\\s`));
    expect(limits).toMatch(new RegExp(`Max address space\\s+${LIMITS.memoryBytes}\\s+${LIMITS.memoryBytes}\\s`));
  });

  it.skipIf(limiter === undefined || process.platform !== "linux")("the program gets its arguments as given and the environment unchanged", () => {
    const args = run(limiter!, ["/usr/bin/printf", "[%s]", "$HOME", "a b", "-x", "*", "'q'"]);
    expect(args).toBe("[$HOME][a b][-x][*]['q']");
    expect(run(limiter!, ["/usr/bin/env"]).trim().split("\n").sort()).toEqual(["A=1", "PATH=/usr/bin:/bin"]);
  });
});

describe("no limiter found", () => {
  it("no words: the program runs as it is", () => {
    expect(limitsPrefix(undefined)).toEqual([]);
  });
});

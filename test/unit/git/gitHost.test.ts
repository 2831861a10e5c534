/**
 * git started from a helper process: the answers are git's own, the starts happen in the helper
 * (not in this process, whose size would make each start hold its event loop), and a helper that
 * dies costs no call.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { GitHost } from "../../../src/core/git/gitHost";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const hosts: GitHost[] = [];
afterEach(() => hosts.splice(0).forEach((h) => h.dispose()));
const run = (host: GitHost, cwd: string, args: string[]) => host.run({ cwd, args, env: process.env, timeoutMs: 10_000, maxBuffer: 1024 * 1024 });

describe("git from a helper process", () => {
  it("answers as git does (output, exit code, stderr), from a process that is not this one", async () => {
    const repo = tempDir();
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    const host = new GitHost();
    hosts.push(host);
    expect(await run(host, repo, ["symbolic-ref", "--short", "HEAD"])).toEqual({ code: 0, stdout: "main\n", stderr: "" });
    expect(host.helperPid).toBeDefined();
    expect(host.helperPid).not.toBe(process.pid);
    const missing = await run(host, repo, ["rev-parse", "--verify", "no-such-branch"]);
    expect(missing.code).toBe(128);
    expect(missing.stderr).toMatch(/fatal/);
    // A folder that does not exist: the start itself fails, with a message.
    const nowhere = await run(host, `${repo}/missing`, ["status"]);
    expect(nowhere.code).toBe(-1);
    expect(nowhere.stderr).toMatch(/ENOENT|spawn/);
  });

  it("a helper killed with a call in flight: the call still gets git's answer, and the next call gets a new helper", async () => {
    const repo = tempDir();
    execFileSync("git", ["init", "-q", repo]);
    const host = new GitHost();
    hosts.push(host);
    await run(host, repo, ["status"]);
    const first = host.helperPid!;
    const slow = run(host, repo, ["-c", "alias.slow=!sleep 1 && echo slept", "slow"]);
    process.kill(first, "SIGKILL");
    expect(await slow).toMatchObject({ code: 0, stdout: "slept\n" });
    expect((await run(host, repo, ["status", "--porcelain"])).code).toBe(0);
    expect(host.helperPid).toBeDefined();
    expect(host.helperPid).not.toBe(first);
  });
});

/**
 * The sandbox as execute_command asks for it: where there is none, why (once per reason, for the
 * panel) and that a command cannot be launched in it; where there is one, a launch for a worktree
 * agent writes only its worktree.
 */
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BubblewrapSandbox, type SandboxAvailability, standIns } from "../../../src/core/sandbox";
import { sandboxAvailable } from "../../support/sandbox";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

describe("no sandbox here", () => {
  it.each(["darwin", "win32"] as const)("on %s: not available, said once with what happens instead", async (platform) => {
    const told: SandboxAvailability[] = [];
    const sandbox = new BubblewrapSandbox({ settings, platform, retryAfterMs: 0, onUnavailable: (why) => told.push(why) });
    const first = await sandbox.availability();
    expect(first).toMatchObject({ available: false, reason: expect.stringMatching(/runs on Linux \(bubblewrap\); there is none for (macOS|Windows) yet/) });
    await sandbox.availability(); // probed again (retryAfterMs 0), the same reason: not told twice
    expect(told).toHaveLength(1);
    await expect(sandbox.launch({ cwd: "/w", folders: ["/w"], agentCwd: undefined })).rejects.toThrow(/there is none for/);
  });
});

const here = process.platform === "linux" && (await sandboxAvailable("the sandbox's launches"));

describe.skipIf(!here)("a launch", () => {
  it("for a worktree agent binds only its worktree writable, the main checkout read-only", async () => {
    const repo = realpathSync(tempDir());
    const worktree = join(repo, ".claude", "worktrees", "fix-1");
    mkdirSync(join(worktree, "src"), { recursive: true });
    const launch = await new BubblewrapSandbox({ settings }).launch({ cwd: join(worktree, "src"), folders: [repo], agentCwd: worktree });
    const args = launch.args.join(" ");
    expect(args).toContain(`--ro-bind ${repo} ${repo}`);
    expect(args).toContain(`--bind ${worktree} ${worktree}`);
    expect(args).not.toContain(`--bind ${repo} ${repo}`);
    expect(args).toContain(`--chdir ${join(worktree, "src")}`);
    expect(launch.stubs).toEqual([join(worktree, ".git"), join(worktree, ".claude"), join(worktree, ".vscode")]);
    // Made when launched, held until released (standIns.ts), then gone (just after).
    expect(existsSync(join(worktree, ".claude"))).toBe(true);
    launch.release();
    await standIns.settled();
    expect(existsSync(join(worktree, ".claude"))).toBe(false);
  });

  it("arcadia.sandboxReadablePaths: added read-only; the home folder itself never", async () => {
    const root = realpathSync(tempDir());
    const home = join(root, "home");
    mkdirSync(join(home, ".rustup"), { recursive: true });
    const ws = join(root, "ws");
    mkdirSync(ws);
    const sandbox = new BubblewrapSandbox({ settings: () => ({ mode: "unaskedCommands", readablePaths: ["~/.rustup", "~", home, "relative/x", "/does/not/exist"] }), home });
    const launch = await sandbox.launch({ cwd: ws, folders: [ws], agentCwd: undefined });
    launch.release();
    const args = launch.args.join(" ");
    expect(args).toContain(`--ro-bind ${join(home, ".rustup")} ${join(home, ".rustup")}`);
    expect(args).not.toContain(`--ro-bind ${home} ${home}`);
    expect(args).toContain(`--tmpfs ${home}`);
  });
});

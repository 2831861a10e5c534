/**
 * The same-clock-tick rule of the walk's records (folderWalks.ts): a change made in the same tick
 * of the filesystem's clock as the change before the walk read a folder leaves the folder's ctime
 * as it was, so a record of it must not be believed until its ctime is older than the granularity.
 * On ext4 with nanosecond times and Linux's multigrain timestamps that tick never repeats after a
 * look, so the attack runs on an ext4 made with 128-byte inodes (whole-second times, as on older
 * or smaller filesystems), loop-mounted: root only, skipped elsewhere with the reason printed.
 *
 * Through the sandbox's real runner and the real bubblewrap: within one second the host touches
 * `sub` (its ctime is that second), the command is launched (the walk reads `sub`), and the command
 * makes `sub/.git` with core.fsmonitor (the ctime stays that second). Weakened (no same-tick rule)
 * the look after its end believes the record: nothing is found. Arcadia's reads `sub` again.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, FolderWalks, type LeftBehind, standIns } from "../../../src/core/sandbox";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { sandboxAvailable } from "../../support/sandbox";
import { NoSameTickRuleWalks } from "./support/weakenedWalks";

vi.setConfig({ testTimeout: 60_000 });

const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

/** Why a whole-second filesystem cannot be made here, or undefined when it can. */
function wholeSecondFilesystemUnavailable(): string | undefined {
  if (process.platform !== "linux") return "Linux only";
  if (process.getuid?.() !== 0) return "a loop mount needs root";
  try {
    execFileSync("losetup", ["-f"], { stdio: "ignore" });
    execFileSync("mke2fs", ["-V"], { stdio: "ignore" });
  } catch {
    return "losetup or mke2fs is missing, or no loop device is free";
  }
  return undefined;
}

const missing = wholeSecondFilesystemUnavailable();
if (missing) console.warn(`the walk's same-tick rule on a whole-second filesystem skipped: ${missing}`);
const available = missing === undefined && (await sandboxAvailable("the walk's same-tick rule"));

let folder: string;
let image: string;
let mounted: string;

beforeAll(() => {
  if (!available) return;
  folder = mkdtempSync(join(tmpdir(), "arcadia-same-tick-"));
  image = join(folder, "ext4.img");
  mounted = join(folder, "fs");
  mkdirSync(mounted);
  execFileSync("truncate", ["-s", "32M", image]);
  execFileSync("mke2fs", ["-q", "-F", "-t", "ext4", "-I", "128", image], { stdio: "ignore" });
  execFileSync("mount", ["-o", "loop", image, mounted]);
});

afterAll(() => {
  if (!available) return;
  execFileSync("umount", [mounted]);
  rmSync(folder, { recursive: true, force: true });
});

const PLANT = "mkdir sub/.git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > sub/.git/config";

/** Changes `sub`, launches, runs the plant and looks after its end, all within one second of the clock (tried again when the second turned). */
async function plantInOneTick(walks: FolderWalks): Promise<{ found: LeftBehind[]; workspace: string }> {
  const sandbox = new BubblewrapSandbox({ settings, walks });
  const runner = new ProcessCommandRunner();
  try {
    for (let attempt = 0; attempt < 8; attempt++) {
      const workspace = mkdtempSync(join(mounted, "ws-"));
      mkdirSync(join(workspace, "sub"));
      // Recorded once before, settled: the weakened build then has a record to believe.
      (await sandbox.launch({ cwd: workspace, folders: [workspace], agentCwd: undefined })).release();
      await sleep(1000 - (Date.now() % 1000) + 20);
      writeFileSync(join(workspace, "sub", "touched"), "x\n");
      const second = Math.floor(statSync(join(workspace, "sub")).ctimeMs / 1000);
      const launch = await sandbox.launch({ cwd: workspace, folders: [workspace], agentCwd: undefined });
      const argv = ["/bin/sh", "-c", PLANT];
      const handle = await runner.start({ command: argv.join(" "), cwd: workspace, argv, sandbox: launch });
      expect(await handle.ended).toEqual({ kind: "exited", exitCode: 0 });
      runner.release(handle.id);
      const found = await launch.leftBehind();
      await standIns.settled();
      // The tick this test is about: the plant left sub's ctime where the host's change put it.
      if (Math.floor(statSync(join(workspace, "sub")).ctimeMs / 1000) === second) return { found, workspace };
    }
    throw new Error("the plant never landed in the second of the change before it (the machine is too slow for this test now)");
  } finally {
    runner.dispose();
  }
}

describe.skipIf(!available)("a change in the same clock tick as the one before the walk", () => {
  it("weakened (no same-tick rule): the plant is not found — the test can fail", async () => {
    const { found, workspace } = await plantInOneTick(new NoSameTickRuleWalks());
    expect(found).toEqual([]);
    expect(existsSync(join(workspace, "sub", ".git", "config"))).toBe(true);
  });

  it("Arcadia's records: sub is read again, the plant is found and said in words", async () => {
    const { found } = await plantInOneTick(new FolderWalks());
    expect(found.map((f) => f.said)).toEqual(["created sub/.git with core.fsmonitor, a program git would run"]);
  });
});

/**
 * A stand-in is removed just after its last command's end is told (standIns.ts), not before: the
 * agent does not wait on the rmdir. A command launched in that moment must never be given the
 * stand-in that is being removed — its sandbox would bind a folder the removal then takes away
 * (the kernel drops the mount with it: the issue-31 race again), and it could make `.claude`.
 * Held: a hold waits for the removal under way and makes the stand-in afresh, so a held stand-in
 * exists until it is let go of. Weakened (a hold that does not wait) the removal takes it from
 * under the new holder — the test can fail.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StandIns } from "../../../src/core/sandbox";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** No other window has a sandbox (the scan of /proc is not what is under test here). */
const nobodyElse = () => new Set<string>();

/** The build before: a hold takes a stand-in counted at 0 as it is, even while its removal is under way. */
function weakened(): StandIns {
  return Object.assign(new StandIns(nobodyElse), { removals: () => [] });
}

async function launchDuringRemoval(record: StandIns): Promise<{ path: string; before: number; held: boolean; after: number | undefined }> {
  const path = join(realpathSync(tempDir()), ".claude");
  const first = await record.hold([path]);
  const before = statSync(path).ino;
  first(); // the first command's sandbox has exited: its removal starts
  const second = await record.hold([path]); // the next command launches at once
  await record.settled();
  const held = existsSync(path);
  const after = held ? statSync(path).ino : undefined;
  second();
  await record.settled();
  return { path, before, held, after };
}

describe("a command launched while another's stand-in is being removed", () => {
  it("weakened (a hold that does not wait): the removal takes the stand-in from under the new command — the test can fail", async () => {
    const seen = await launchDuringRemoval(weakened());
    expect(seen.held).toBe(false);
  });

  it("Arcadia's: the new command's hold waits for the removal and makes the stand-in afresh; it stays until let go of, then goes", async () => {
    const record = new StandIns(nobodyElse);
    const seen = await launchDuringRemoval(record);
    expect(seen.held).toBe(true);
    expect(seen.after).not.toBeUndefined();
    expect(existsSync(seen.path)).toBe(false);
    expect(record.size).toBe(0);
  });

  it("control: a stand-in let go of is removed just after, with no command launched meanwhile", async () => {
    const record = new StandIns(nobodyElse);
    const path = join(realpathSync(tempDir()), ".vscode");
    const release = await record.hold([path]);
    expect(record.isOurs(path)).toBe(true);
    release();
    // Still ours until removed: no launch meanwhile takes it for the user's folder.
    expect(record.isOurs(path)).toBe(true);
    await record.settled();
    expect(existsSync(path)).toBe(false);
    expect(record.isOurs(path)).toBe(false);
  });
});

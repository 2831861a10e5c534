/**
 * A (possibly prompt-injected) agent cannot make Arcadia take the user's inotify watches: an open
 * compare tab watches each member's worktree folder by folder, and an agent can make folders without
 * end in its worktree. Each would hold one of the watches the user has (max_user_watches), which
 * VS Code and every other watcher need too. Past a limit (memberWatch.ts MEMBER_TREE_FOLDERS; a smaller one here, this
 * machine's file system being slow to make thousands) no more are watched, and the log says so once.
 * Nor can a link in its worktree to a folder elsewhere (`~`, `/`) have that folder watched and its
 * changes told as the worktree's. Counted on the real kernel (the process's inotify watches, /proc/self/fdinfo).
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memberTreeWatch } from "../../../src/agents/races/memberWatch";

const LIMIT = 200;
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** inotify watches this process holds now (Linux). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fdinfo")) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("inotify wd:")).length;
    } catch {
      // An fd closed meanwhile.
    }
  }
  return count;
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe.runIf(process.platform === "linux")("a member's worktree watch, against a folder bomb", () => {
  it("holds at most its limit of watches however many folders the agent makes, and says so once", async () => {
    const worktree = tempDir();
    const bomb = LIMIT * 3;
    const logged: string[] = [];
    const before = inotifyWatches();
    const watch = memberTreeWatch((m) => logged.push(m), LIMIT)(
      worktree,
      () => true,
      () => undefined,
    );
    try {
      await watch.ready;
      // Made after the watch started, as an agent would: each new folder is picked up as it comes.
      for (let i = 0; i < bomb / 50; i++) for (let j = 0; j < 50; j++) mkdirSync(join(worktree, `a${i}`, `b${j}`), { recursive: true });
      for (let waited = 0; waited < 20 && logged.length === 0; waited++) await settle();
      await settle();
      const held = inotifyWatches() - before;
      console.log(`${bomb + bomb / 50} folders made: ${held} watches held`);
      expect(held).toBe(LIMIT);
      expect(logged).toEqual([`compare: ${worktree} has more than ${LIMIT} folders; those past them are not watched (read again as its agent works)`]);
    } finally {
      await watch.close();
    }
    expect(inotifyWatches()).toBe(before);
  });

  it("does not follow a link the agent makes to a folder outside its worktree", async () => {
    const worktree = tempDir();
    const home = tempDir();
    mkdirSync(join(home, ".ssh"));
    const told: string[] = [];
    const before = inotifyWatches();
    const watch = memberTreeWatch(() => undefined)(
      worktree,
      () => true,
      (path) => told.push(path),
    );
    try {
      await watch.ready;
      symlinkSync(home, join(worktree, "home"));
      await settle();
      writeFileSync(join(home, ".ssh", "known_hosts"), "host\n");
      writeFileSync(join(home, "notes.txt"), "mine\n");
      await settle();
      expect(told).toEqual([join(worktree, "home")]);
      expect(inotifyWatches() - before).toBe(1);
    } finally {
      await watch.close();
    }
  });
});

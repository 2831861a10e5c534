/**
 * A worktree agent's card follows its worktree whatever changes it, with no tool of its agent and no
 * turn ending: a file written by hand shows in its count (`N files · +a −b`), by the worktree's watch,
 * and by the poll under it where file events are lost; a file git ignores is no news. Once counted,
 * nothing is counted again by itself (a count wakes no watch). When the card goes, every watch it
 * held is closed (the process's inotify watches, counted on the real kernel) and it leaves the poll.
 * Real git, real fs.watch; how long each took is printed, never asserted.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HeadWatches } from "../../../src/agents/worktrees/headWatches";
import { followWorktreeAgents, WorktreeCards } from "../../../src/agents/worktrees/worktreeCards";
import { CARD_TREE_FOLDERS, worktreeFollower } from "../../../src/agents/worktrees/worktreeFollow";
import { worktreeTreeWatch } from "../../../src/agents/worktrees/worktreeWatch";
import { changeStats } from "../../../src/core/git/changeStats";
import { gitFolders } from "../../../src/core/git/gitFolders";
import { ignoredAmong, ignoredNow } from "../../../src/core/git/ignoredPaths";
import { createWorktree, worktreeOf } from "../../../src/core/git/worktreeCreate";
import { workTreePrint } from "../../../src/core/git/workTreePrint";
import { Emitter } from "../../../src/core/util/emitter";
import { noWatch } from "../../../src/core/util/fileWatch";
import { SafetyPoll } from "../../../src/core/util/safetyPoll";
import type { WatchFactory } from "../../../src/core/util/watchTypes";
import { handCards } from "../../support/cardEvents";
import { git } from "../../support/gitRepo";
import { useTempDirs } from "../../support/tempDir";
import { pollUntil, waitForChange } from "../../support/waitFor";

const tempDir = useTempDirs();
const open: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.dispose();
});

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

/** A poll that never comes within a test: what is seen is the watch's doing. */
const NEVER = 3_600_000;

/**
 * A repository on main (a.ts, src/b.ts; node_modules/ and *.log ignored) and a worktree of it, followed by a
 * card of an idle agent (no hook fired, no turn ends): the real follower, with `watchTree` and `heads`
 * as given (the real ones unless events are to be lost), and the count as the card says it.
 */
async function followedWorktree(opts: { pollMs: number; watchTree?: WatchFactory; heads?: HeadWatches }) {
  const root = realpathSync(tempDir());
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, ".gitignore"), ".claude/\nnode_modules/\n*.log\n");
  writeFileSync(join(root, "a.ts"), "a\n");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "b.ts"), "b\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  const tree = await createWorktree(root, "hand");
  mkdirSync(join(tree.path, "node_modules", "dep"), { recursive: true });

  const poll = new SafetyPoll({ baseMs: opts.pollMs, maxMs: opts.pollMs });
  const heads = opts.heads ?? new HeadWatches();
  const watchTree = opts.watchTree ?? worktreeTreeWatch(() => undefined, CARD_TREE_FOLDERS, "card");
  let counts = 0;
  let tells = 0;
  /** Paths git was asked about (whether it ignores them), once answered. */
  const asked = new Emitter<readonly string[]>();
  const askGit = async (worktree: string, paths: readonly string[]) => {
    const ignored = await ignoredAmong(worktree, paths);
    asked.fire(paths);
    return ignored;
  };
  const real = worktreeFollower({ heads, gitFolders, watchTree, ignoredNow, ignoredAmong: askGit, poll, print: workTreePrint, log: () => undefined });
  /** The card's watches in place. */
  let watching: Promise<void> | undefined;
  const follow: typeof real = (info, onChange) => {
    const followed = real(info, () => (tells++, onChange()));
    watching = followed.ready;
    return followed;
  };
  const cards = new WorktreeCards({
    worktreeOf,
    changeStats: (w, b) => (counts++, changeStats(w, b)),
    log: () => undefined,
    settleMs: 10,
    heads,
    follow,
  });
  const changes = handCards();
  open.push(cards, followWorktreeAgents(cards, { cards: changes, agentCwd: () => tree.path, onDidHook: new Emitter<string>().event }));
  const shows = (files: number, what: string) => {
    const started = Date.now();
    return waitForChange(
      (on) => cards.onDidChange(on).dispose,
      () => cards.worktree("a1")?.changes?.files === files && cards.worktree("a1")!.changes,
      10_000,
      what,
    ).then((changes) => ({ changes, ms: Date.now() - started }));
  };
  changes.change({ id: "a1", name: "hand", status: "waiting" } as never);
  await shows(0, "the first count");
  await watching;
  const answered = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`git was never asked whether it ignores ${path}`)), 10_000);
      const heard = asked.event((paths) => {
        if (!paths.includes(path)) return;
        clearTimeout(timer);
        heard.dispose();
        resolve();
      });
    });
  return { tree, poll, changes, cards, shows, answered, counts: () => counts, tells: () => tells };
}

describe("a worktree agent's card follows its worktree, whatever changed it", () => {
  it("a file written into the worktree by hand shows in the card's count, with no hook and no turn; an ignored one is no news", async () => {
    const { tree, shows, answered, counts, tells } = await followedWorktree({ pollMs: NEVER });
    const seen = shows(1, "the edit by hand in the card's count");
    writeFileSync(join(tree.path, "src", "b.ts"), "b\nby hand\n");
    const { changes, ms } = await seen;
    console.log(`an edit by hand → the card's count: ${ms} ms`);
    expect(changes).toEqual({ files: 1, added: 1, removed: 0 });

    // Files git ignores: node_modules (not even watched) and a new log (git asked, once): no news, no count.
    const before = { counts: counts(), tells: tells() };
    const sorted = answered("build.log");
    writeFileSync(join(tree.path, "node_modules", "dep", "index.js"), "built\n");
    writeFileSync(join(tree.path, "build.log"), "log\n");
    await sorted;
    await new Promise((r) => setImmediate(r));
    expect(tells()).toBe(before.tells);

    writeFileSync(join(tree.path, "notes.md"), "one\ntwo\n");
    expect((await shows(2, "the new file in the card's count")).changes).toEqual({ files: 2, added: 3, removed: 0 });
    expect(counts() - before.counts).toBe(1);
  });

  it("where file events are lost, the poll finds the edit; once counted, nothing is counted again by itself", async () => {
    const lost = new HeadWatches(() => {
      throw new Error("no watch here");
    });
    const { tree, poll, shows, counts } = await followedWorktree({ pollMs: 50, watchTree: noWatch, heads: lost });
    writeFileSync(join(tree.path, "a.ts"), "a\nlost event\n");
    const { changes, ms } = await shows(1, "the edit found by the poll");
    console.log(`an edit whose events are lost → the card's count: ${ms} ms`);
    expect(changes).toEqual({ files: 1, added: 1, removed: 0 });
    // A count writes nothing the print reads: three looks later, still no count of its own.
    const before = counts();
    const checks = poll.checks;
    await pollUntil(() => poll.checks >= checks + 3, "three more looks", 10_000, 20);
    expect(counts()).toBe(before);
  });

  it.runIf(process.platform === "linux")("every watch the card held is closed when the card goes, and it leaves the poll", async () => {
    const before = inotifyWatches();
    const { tree, poll, changes, shows } = await followedWorktree({ pollMs: NEVER });
    // Watching: an edit is seen (so the watches are in place, the tree's folders and HEAD's).
    const seen = shows(1, "the edit while watched");
    writeFileSync(join(tree.path, "a.ts"), "a\nwatched\n");
    await seen;
    expect(inotifyWatches()).toBeGreaterThan(before);
    expect(poll.size).toBe(1);

    changes.remove("a1");
    await pollUntil(
      () => inotifyWatches() === before,
      () => `the watches closed (${inotifyWatches() - before} left)`,
      5_000,
      20,
    );
    expect(poll.size).toBe(0);
  });
});

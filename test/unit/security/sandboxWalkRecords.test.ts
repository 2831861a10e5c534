/**
 * The walk for nested repositories keeps what it read between commands (folderWalks.ts): an
 * unchanged folder is not read again. A prompt-injected `npm test` tries to make those records lie,
 * so that the repository it plants (whose core.fsmonitor or hooks git runs later, outside any
 * sandbox) goes unnoticed at its end and stays writable to the next command: a nested `.git` made
 * between two commands, the folder's mtime set back with `touch -d`, a parent folder renamed
 * (with its mtimes set back), a `.git` file hard-linked in, a bare layout behind a `.git` file,
 * a `.husky` that core.hooksPath names, a `.git` that is a symbolic link, and the same from a
 * second command running beside a first. Each runs through execute_command, the command plan and
 * the real bubblewrap, after a harmless command filled the records (and they settled). Weakened
 * (support/weakenedWalks.ts) the repository stays, nobody asked; with Arcadia's records the user
 * is asked in plain words. The same-clock-tick attack is in sandboxWalkSameTick.test.ts.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, FolderWalks } from "../../../src/core/sandbox";
import { committedRepo } from "../../support/gitRepo";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";
import { MtimeWalks, NothingRecheckedWalks } from "./support/weakenedWalks";

vi.setConfig({ testTimeout: 90_000 });

let h: PolicyHarness;
afterEach(async () => h?.close());

const available = process.platform === "linux" && (await sandboxAvailable("the walk's records"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

const FSMONITOR = "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n'";
/** `body`, then `folder`'s mtime put back as it was (to the nanosecond): what an mtime-keyed cache compares. */
const mtimeKept = (folders: string[], body: string) =>
  `${folders.map((f, i) => `m${i}=$(stat -c %.9Y ${f})`).join(" && ")} && ${body} && ${folders.map((f, i) => `touch -d @$m${i} ${f}`).join(" && ")}`;

interface Attack {
  name: string;
  /** The build that shows the attack working. */
  weakened: () => FolderWalks;
  script: string;
  /** What the user is asked, in words (part of the reason). */
  said: string;
  /** What must be on the disk after the weakened run (the plant, unnoticed). */
  planted: string;
}

const ATTACKS: Attack[] = [
  {
    name: "a nested .git made between two commands (records not looked at again at the command's end)",
    weakened: () => new NothingRecheckedWalks(),
    script: `mkdir sub/.git && ${FSMONITOR} > sub/.git/config`,
    said: "created sub/.git with core.fsmonitor, a program git would run",
    planted: "sub/.git/config",
  },
  {
    name: "the folder's mtime set back with touch -d",
    weakened: () => new MtimeWalks(),
    script: mtimeKept(["sub"], `mkdir sub/.git && ${FSMONITOR} > sub/.git/config`),
    said: "created sub/.git with core.fsmonitor, a program git would run",
    planted: "sub/.git/config",
  },
  {
    name: "a parent folder renamed over (a/b replaced by a folder holding .git, mtimes set back)",
    weakened: () => new MtimeWalks(),
    script: mtimeKept(["a", "a/b"], `mkdir -p n/b/.git && ${FSMONITOR} > n/b/.git/config && mv a old && mv n a`),
    said: "created a/b/.git with core.fsmonitor, a program git would run",
    planted: "a/b/.git/config",
  },
  {
    name: "a .git file hard-linked in, leading to a bare repository with core.fsmonitor",
    weakened: () => new MtimeWalks(),
    script:
      "git init -q --bare .mine && git --git-dir=.mine config core.fsmonitor 'touch /tmp/pwned' && printf 'gitdir: ../.mine\\n' > gitfile && " +
      mtimeKept(["sub"], "ln gitfile sub/.git"),
    said: "created sub/.git with core.fsmonitor, a program git would run",
    planted: "sub/.git",
  },
  {
    name: "a bare layout behind a .git file",
    weakened: () => new MtimeWalks(),
    script:
      "git init -q --bare .bare && git --git-dir=.bare config core.fsmonitor 'touch /tmp/pwned' && " +
      mtimeKept(["sub"], "printf 'gitdir: ../.bare\\n' > sub/.git"),
    said: "created sub/.git with core.fsmonitor, a program git would run",
    planted: "sub/.git",
  },
  {
    name: "a .husky that core.hooksPath names, with a pre-commit hook",
    weakened: () => new MtimeWalks(),
    script: mtimeKept(
      ["sub"],
      "git init -q sub && git -C sub config core.hooksPath .husky && mkdir sub/.husky && printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > sub/.husky/pre-commit",
    ),
    said: "created sub/.git with core.hookspath, a program git would run",
    planted: "sub/.husky/pre-commit",
  },
  {
    name: "a .git that is a symbolic link to a git folder elsewhere",
    weakened: () => new MtimeWalks(),
    script: `mkdir -p elsewhere/cfg && ${FSMONITOR} > elsewhere/cfg/config && ` + mtimeKept(["sub"], "ln -s ../elsewhere/cfg sub/.git"),
    said: "created sub/.git",
    planted: "sub/.git",
  },
];

/** A repository with `sub/` and `a/b/`, its folders read by a harmless command once they are older than the same-tick rule's margin. */
async function warmed(walks: FolderWalks, test: string, lint = "echo WARM"): Promise<void> {
  h = await startPolicyHarness();
  committedRepo(h.workspace);
  for (const folder of ["sub", "a/b"]) mkdirSync(join(h.workspace, folder), { recursive: true });
  writeFileSync(join(h.workspace, "sub", "keep.txt"), "x\n");
  h.ports.sandbox = new BubblewrapSandbox({ settings, walks });
  h.answerApprovals("deny");
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { lint: "echo WARM", test: "echo WARM" } }));
  await sleep(300);
  const warm = (await h.call("execute_command", { command: "npm run lint" })).body;
  expect(warm.output).toContain("WARM");
  expect(walks.size).toBeGreaterThan(0);
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { lint, test: `${test} && echo CONTROL-RAN` } }));
}

describe.skipIf(!available)("the walk's records cannot be made to lie", () => {
  for (const attack of ATTACKS) {
    describe(attack.name, () => {
      it("weakened: planted unnoticed — the test can fail", async () => {
        await warmed(attack.weakened(), attack.script);
        const body = (await h.call("execute_command", { command: "npm test" })).body;
        expect(body.output).toContain("CONTROL-RAN");
        expect(h.asked).toEqual([]);
        expect(existsSync(join(h.workspace, attack.planted))).toBe(true);
      });

      it("Arcadia's records: the user is asked, in plain words", async () => {
        await warmed(new FolderWalks(), attack.script);
        const body = (await h.call("execute_command", { command: "npm test" })).body;
        expect(body.output).toContain("CONTROL-RAN");
        expect(h.asked.map((a) => a.reason)).toEqual([expect.stringContaining(`the agent's command ${attack.said}`)]);
      });
    });
  }

  describe("from inside a second command running beside a first (mtime set back)", () => {
    const plant = mtimeKept(["sub"], `mkdir sub/.git && ${FSMONITOR} > sub/.git/config`);
    const both = async () => {
      const first = h.call("execute_command", { command: "npm run lint" });
      await sleep(400);
      const second = h.call("execute_command", { command: "npm test" });
      return Promise.all([first, second]);
    };

    it("weakened: planted unnoticed by either — the test can fail", async () => {
      await warmed(new MtimeWalks(), plant, "sleep 3");
      await both();
      expect(h.asked).toEqual([]);
      expect(existsSync(join(h.workspace, "sub", ".git", "config"))).toBe(true);
    });

    it("Arcadia's records: the user is asked", async () => {
      await warmed(new FolderWalks(), plant, "sleep 3");
      await both();
      expect(h.asked.length).toBeGreaterThan(0);
      for (const a of h.asked) expect(a.reason).toContain("created sub/.git with core.fsmonitor, a program git would run");
    });
  });

  it("control: a harmless command with the records warm asks nothing, and only the folders it changed are read again", async () => {
    const walks = new FolderWalks();
    await warmed(walks, "mkdir -p sub/made && echo x > sub/made/file.txt");
    const before = walks.reads;
    const body = (await h.call("execute_command", { command: "npm test" })).body;
    expect(body.output).toContain("CONTROL-RAN");
    expect(h.asked).toEqual([]);
    expect(body.left_behind).toBeUndefined();
    // Read again: the root at the launch and at the end (its stand-ins come and go), sub and sub/made
    // at the end (changed by the command); a, a/b and src are believed both times (a full read: 11 folders).
    expect(walks.reads - before).toBeLessThanOrEqual(5);
  });
});

/**
 * Issue 31, item 3: protected names are checked on the disk. A prompt-injected `npm test` (it runs
 * unasked) tries to leave code that runs later, outside the sandbox:
 * - through a protected name shipped as a link (`.claude -> docs/claude-cfg`);
 * - in a nested repository's config (`sub/.git/config`: VS Code's Git runs `git status` there);
 * - by moving the nested repository's folder aside and making it again with a `.git` of its own;
 * - in a bare layout's config (`.bare/config` behind a `.git` file);
 * - in the folder core.hooksPath names (`.husky/pre-commit`, run at the user's next commit),
 *   existing or not, also a nested repository's;
 * - in a file the git config includes (`include.path = ../.gitconfig-shared`).
 * Each works against a weakened build (the one defence taken out), and is held by Arcadia's
 * sandbox (read-only, or the command asks); a harmless control in the same script still runs.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, type CommandSandbox } from "../../../src/core/sandbox";
import { committedRepo, git } from "../../support/gitRepo";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";
import { ignoringConcerns, weakenedSandbox, withoutMountsAt } from "./support/weakenedSandbox";

vi.setConfig({ testTimeout: 60_000 });

let h: PolicyHarness;
afterEach(async () => h?.close());

const available = process.platform === "linux" && (await sandboxAvailable("protected names on the disk"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });
const arcadia = () => new BubblewrapSandbox({ settings });
const FSMONITOR = "\\n[core]\\n\\tfsmonitor = touch /tmp/pwned\\n";

interface Attack {
  name: string;
  /** Makes the workspace (a committed repository) what the attack needs. */
  plant: (ws: string) => void;
  /** Shell lines; each prints its marker when it worked. */
  script: string[];
  marker: string;
  /** The defence taken out for the weakened build. */
  weaken: (ws: string) => (real: CommandSandbox) => CommandSandbox;
  /** On the host afterwards: whether the attack landed. */
  landed: (ws: string) => boolean;
  /** Arcadia's sandbox asks instead of running (a concern), rather than running it held. */
  asks?: RegExp;
}

const ATTACKS: Attack[] = [
  {
    name: "a protected name shipped as a link (.claude -> docs/claude-cfg)",
    plant: (ws) => {
      mkdirSync(join(ws, "docs", "claude-cfg"), { recursive: true });
      symlinkSync("docs/claude-cfg", join(ws, ".claude"));
    },
    script: [`echo '{"hooks":{}}' > .claude/settings.json 2>/dev/null && echo WROTE-THROUGH-LINK`],
    marker: "WROTE-THROUGH-LINK",
    weaken: () => ignoringConcerns,
    landed: (ws) => existsSync(join(ws, "docs", "claude-cfg", "settings.json")),
    asks: /\.claude is a symbolic link \(to docs\/claude-cfg\)/,
  },
  {
    name: "a nested repository's config (sub/.git/config)",
    plant: (ws) => committedRepo(mkdirIn(ws, "sub")),
    script: [`printf '${FSMONITOR}' >> sub/.git/config 2>/dev/null && echo WROTE-NESTED-CONFIG`],
    marker: "WROTE-NESTED-CONFIG",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, "sub", ".git"))),
    landed: (ws) => readFileSync(join(ws, "sub", ".git", "config"), "utf8").includes("fsmonitor"),
  },
  {
    name: "the nested repository's folder moved aside and made again (mv sub x; mkdir -p sub/.git)",
    plant: (ws) => committedRepo(mkdirIn(ws, "sub")),
    script: [`mv sub moved 2>/dev/null && mkdir -p sub/.git && printf '${FSMONITOR}' > sub/.git/config && echo REMADE-NESTED`],
    marker: "REMADE-NESTED",
    // Without the pin on sub (its own read-only bind onto itself) the folder can be renamed; the
    // check afterwards (item 4) would still ask about `moved/.git`, so it is taken out too.
    weaken: (ws) => (real) => {
      const weak = weakenedSandbox(real, withoutMountsAt(join(ws, "sub")));
      return { ...weak, launch: async (where) => ({ ...(await weak.launch(where)), leftBehind: async () => [] }) };
    },
    landed: (ws) => existsSync(join(ws, "moved")),
  },
  {
    name: "a bare layout's config (.bare/config behind a .git file)",
    plant: (ws) => {
      git(ws, "clone", "-q", "--bare", ws, join(ws, ".bare"));
      mkdirSync(join(ws, "tree"));
      writeFileSync(join(ws, "tree", ".git"), "gitdir: ../.bare\n");
    },
    script: [`printf '${FSMONITOR}' >> .bare/config 2>/dev/null && echo WROTE-BARE-CONFIG`],
    marker: "WROTE-BARE-CONFIG",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, ".bare"))),
    landed: (ws) => readFileSync(join(ws, ".bare", "config"), "utf8").includes("fsmonitor"),
  },
  {
    name: "the hooks folder core.hooksPath names (.husky/pre-commit)",
    plant: (ws) => {
      mkdirSync(join(ws, ".husky"));
      git(ws, "config", "core.hooksPath", ".husky");
    },
    script: ["printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > .husky/pre-commit 2>/dev/null && echo WROTE-HUSKY-HOOK"],
    marker: "WROTE-HUSKY-HOOK",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, ".husky"))),
    landed: (ws) => existsSync(join(ws, ".husky", "pre-commit")),
  },
  {
    name: "a missing hooks folder core.hooksPath names (mkdir .githooks)",
    plant: (ws) => git(ws, "config", "core.hooksPath", ".githooks"),
    script: ["mkdir -p .githooks 2>/dev/null; printf '#!/bin/sh\\n' > .githooks/pre-commit 2>/dev/null && echo WROTE-MISSING-HOOKS"],
    marker: "WROTE-MISSING-HOOKS",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, ".githooks"))),
    landed: (ws) => existsSync(join(ws, ".githooks", "pre-commit")),
  },
  {
    name: "a file the git config includes (include.path = ../.gitconfig-shared)",
    plant: (ws) => {
      writeFileSync(join(ws, ".gitconfig-shared"), "");
      git(ws, "config", "include.path", "../.gitconfig-shared");
    },
    script: [`printf '${FSMONITOR}' >> .gitconfig-shared 2>/dev/null && echo WROTE-INCLUDED-CONFIG`],
    marker: "WROTE-INCLUDED-CONFIG",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, ".gitconfig-shared"))),
    landed: (ws) => readFileSync(join(ws, ".gitconfig-shared"), "utf8").includes("fsmonitor"),
  },
  {
    name: "a nested repository's hooks folder (sub's core.hooksPath = .hooks)",
    plant: (ws) => {
      const sub = committedRepo(mkdirIn(ws, "sub"));
      mkdirSync(join(sub, ".hooks"));
      git(sub, "config", "core.hooksPath", ".hooks");
    },
    script: ["printf '#!/bin/sh\\n' > sub/.hooks/pre-commit 2>/dev/null && echo WROTE-NESTED-HOOK"],
    marker: "WROTE-NESTED-HOOK",
    weaken: (ws) => (real) => weakenedSandbox(real, withoutMountsAt(join(ws, "sub", ".hooks"))),
    landed: (ws) => existsSync(join(ws, "sub", ".hooks", "pre-commit")),
  },
];

function mkdirIn(ws: string, name: string): string {
  mkdirSync(join(ws, name));
  return join(ws, name);
}

async function attack(a: Attack, sandbox: (ws: string) => (real: CommandSandbox) => CommandSandbox) {
  h = await startPolicyHarness();
  committedRepo(h.workspace);
  a.plant(h.workspace);
  h.ports.sandbox = sandbox(h.workspace)(arcadia());
  writeFileSync(join(h.workspace, "probe.sh"), [...a.script, "echo inside > made-in-workspace.txt && echo CONTROL-RAN", "exit 0"].join("\n"));
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: "sh probe.sh" } }));
  return h.call("execute_command", { command: "npm test" });
}

describe.skipIf(!available)("protected names, checked on the disk", () => {
  describe.each(ATTACKS)("$name", (a) => {
    it("weakened: it lands on the host — the test can fail", async () => {
      const { body } = await attack(a, a.weaken);
      expect(h.asked).toEqual([]);
      expect(body.output).toContain(a.marker);
      expect(a.landed(h.workspace)).toBe(true);
    });

    it("Arcadia's sandbox holds it", async () => {
      const { body } = await attack(a, () => (real) => real);
      if (a.asks) {
        expect(h.asked.map((x) => x.reason)).toEqual([expect.stringMatching(a.asks)]);
        expect(body.status).toBe("denied"); // it never ran
      } else {
        expect(h.asked).toEqual([]);
        expect(body).toMatchObject({ status: "completed", sandboxed: true });
        expect(body.output).toContain("CONTROL-RAN");
        expect(body.output).not.toContain(a.marker);
      }
      expect(a.landed(h.workspace)).toBe(false);
    });
  });
});

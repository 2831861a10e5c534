/**
 * Issue 31, item 2: a sandbox started by root (a devcontainer, a root VS Code server) must not
 * leave its command root. A prompt-injected `npm test` (allow-listed: it runs unasked) tries to
 * undo the sandbox's own mounts: `umount .git` then plant core.fsmonitor, `umount .claude` then
 * plant hooks, remount a read-only folder read-write, remount a worktree agent's main checkout
 * read-write and write its .git/config and hooks, `umount /etc/shadow` then read it.
 * Against a weakened build (bubblewrap's defaults: root inside, every capability kept) each
 * attempt works, as uid 0; against Arcadia's sandbox each is refused, as uid 0 and as a normal
 * user (a root test process starts bubblewrap through setpriv for that). A harmless control in
 * the same script still writes the workspace, unasked.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, type CommandSandbox } from "../../../src/core/sandbox";
import { committedRepo, git } from "../../support/gitRepo";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";
import { asStartedWithAllCapabilities, weakenedSandbox } from "./support/weakenedSandbox";

vi.setConfig({ testTimeout: 60_000 });

let h: PolicyHarness;
afterEach(async () => h?.close());

const available = process.platform === "linux" && (await sandboxAvailable("the sandbox started by root"));
const isRoot = process.getuid?.() === 0;
/** A normal user to start bubblewrap as, when the tests run as root. */
const NORMAL_UID = 1000;
if (available && !isRoot) console.warn("the sandbox started by root: the uid 0 cases skipped: the tests do not run as root here");

const FSMONITOR = "touch /tmp/pwned";
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

/** One line per attempt: its marker when it worked. */
function escapes(main: string | undefined): string[] {
  const lines = [
    `umount .git 2>/dev/null; printf '[core]\\n\\tfsmonitor = ${FSMONITOR}\\n' >> .git/config 2>/dev/null && echo UNMOUNTED-GIT`,
    `umount .claude 2>/dev/null; echo '{"hooks":{}}' > .claude/settings.json 2>/dev/null && echo UNMOUNTED-CLAUDE`,
    "mount -o remount,rw,bind .vscode 2>/dev/null; echo '{}' > .vscode/tasks.json 2>/dev/null && echo REMOUNTED-VSCODE",
    "umount /etc/shadow 2>/dev/null; grep -q '^root:' /etc/shadow 2>/dev/null && echo READ-SHADOW",
    "echo inside > made-in-workspace.txt && echo CONTROL-WROTE-WORKSPACE",
  ];
  if (main) {
    lines.push(
      `mount -o remount,rw,bind '${main}' 2>/dev/null; printf '[core]\\n\\tfsmonitor = ${FSMONITOR}\\n' >> '${main}/.git/config' 2>/dev/null && echo REMOUNTED-MAIN`,
      `printf '#!/bin/sh\\n' > '${main}/.git/hooks/pre-commit' 2>/dev/null && echo WROTE-MAIN-HOOK`,
    );
  }
  return [...lines, "exit 0"];
}

const ESCAPES = ["UNMOUNTED-GIT", "UNMOUNTED-CLAUDE", "REMOUNTED-VSCODE", "READ-SHADOW"];
const WORKTREE_ESCAPES = ["REMOUNTED-MAIN", "WROTE-MAIN-HOOK"];

/**
 * The workspace (a repository with .claude and .vscode), and in a worktree agent's case its
 * worktree; `npm test` runs the attempts where the agent works.
 */
function plant(worktree: boolean): string {
  committedRepo(h.workspace);
  for (const name of [".claude", ".vscode"]) mkdirSync(join(h.workspace, name), { recursive: true });
  const where = worktree ? join(h.workspace, ".claude", "worktrees", "w1") : h.workspace;
  if (worktree) git(h.workspace, "worktree", "add", "-q", where);
  writeFileSync(join(where, "probe.sh"), escapes(worktree ? h.workspace : undefined).join("\n"));
  writeFileSync(join(where, "package.json"), JSON.stringify({ scripts: { test: "sh probe.sh" } }));
  return where;
}

async function run(sandbox: CommandSandbox, worktree: boolean): Promise<{ output: string; where: string }> {
  h = await startPolicyHarness(worktree ? { agentCwd: () => join(h.workspace, ".claude", "worktrees", "w1") } : {});
  h.ports.sandbox = sandbox;
  const where = plant(worktree);
  // npm runs unasked only at a workspace folder's root; in a worktree the agent's foothold is
  // arcadia.mcp.commandApproval "never" (nothing asks, everything runs in the sandbox).
  if (worktree) h.ports.commandApproval = () => ({ mode: "never", allowed: [] });
  const { body } = await h.call("execute_command", { command: worktree ? "sh probe.sh" : "npm test", cwd: where });
  expect(h.asked).toEqual([]);
  expect(body).toMatchObject({ status: "completed", sandboxed: true });
  expect(body.output).toContain("CONTROL-WROTE-WORKSPACE");
  return { output: body.output as string, where };
}

/** Bubblewrap started as a normal user from a root test process: a `bwrap` on PATH that drops to NORMAL_UID first. */
function startedAsNormalUser(): CommandSandbox {
  const bin = join(h.root, "as-user");
  mkdirSync(bin);
  // The availability probe's own folder was made by this root process: handed over like the rest,
  // as it would belong to the user had the extension host been that user.
  const wrapper = [
    "#!/bin/sh",
    'for a in "$@"; do case "$a" in */arcadia-sandbox-probe-*) chown ' + NORMAL_UID + ' "$a" ;; esac; done',
    `exec setpriv --reuid=${NORMAL_UID} --regid=${NORMAL_UID} --clear-groups /usr/bin/bwrap "$@"`,
  ];
  writeFileSync(join(bin, "bwrap"), `${wrapper.join("\n")}\n`);
  chmodSync(join(bin, "bwrap"), 0o755);
  // Only PATH entries that user may enter (root's own ~/.cargo/bin is not one).
  const path = (process.env.PATH ?? "").split(":").filter((entry) => !entry.startsWith("/root"));
  return new BubblewrapSandbox({ settings, env: { ...process.env, PATH: [bin, ...path].join(":") } });
}

/** Everything under the harness's root belongs to NORMAL_UID (the user who then writes it). */
function handOver(path: string): void {
  chownSync(path, NORMAL_UID, NORMAL_UID);
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) handOver(join(path, entry));
}

describe.skipIf(!available)("a sandbox started by root", () => {
  it.skipIf(!isRoot)("weakened (root inside, every capability kept): each escape works — the test can fail", async () => {
    const { output } = await run(weakenedSandbox(new BubblewrapSandbox({ settings }), asStartedWithAllCapabilities), false);
    for (const escape of ESCAPES) expect(output, escape).toContain(escape);
    expect(readFileSync(join(h.workspace, ".git", "config"), "utf8")).toContain(FSMONITOR);
  });

  it.skipIf(!isRoot)("weakened, a worktree agent: remounts the main checkout and writes its .git — the test can fail", async () => {
    const { output } = await run(weakenedSandbox(new BubblewrapSandbox({ settings }), asStartedWithAllCapabilities), true);
    for (const escape of WORKTREE_ESCAPES) expect(output, escape).toContain(escape);
    expect(existsSync(join(h.workspace, ".git", "hooks", "pre-commit"))).toBe(true);
  });

  it.skipIf(!isRoot)("Arcadia's, as uid 0: every escape refused, the control runs unasked", async () => {
    const { output } = await run(new BubblewrapSandbox({ settings }), false);
    for (const escape of ESCAPES) expect(output, escape).not.toContain(escape);
    expect(readFileSync(join(h.workspace, ".git", "config"), "utf8")).not.toContain(FSMONITOR);
    expect(readdirSync(join(h.workspace, ".claude"))).toEqual([]);
    expect(existsSync(join(h.workspace, "made-in-workspace.txt"))).toBe(true);
  });

  it.skipIf(!isRoot)("Arcadia's, as uid 0, a worktree agent: the main checkout stays read-only", async () => {
    const { output, where } = await run(new BubblewrapSandbox({ settings }), true);
    for (const escape of [...ESCAPES, ...WORKTREE_ESCAPES]) expect(output, escape).not.toContain(escape);
    expect(readFileSync(join(h.workspace, ".git", "config"), "utf8")).not.toContain(FSMONITOR);
    expect(existsSync(join(h.workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(where, "made-in-workspace.txt"))).toBe(true);
  });
});

describe.skipIf(!available)("a sandbox started by a normal user", () => {
  it("every escape refused, the control runs unasked", async () => {
    h = await startPolicyHarness();
    const sandbox = isRoot ? startedAsNormalUser() : new BubblewrapSandbox({ settings });
    const where = plant(false);
    if (isRoot) handOver(h.root);
    h.ports.sandbox = sandbox;
    const { body } = await h.call("execute_command", { command: "npm test", cwd: where });
    expect(h.asked).toEqual([]);
    expect(body).toMatchObject({ status: "completed", sandboxed: true });
    expect(body.output).toContain("CONTROL-WROTE-WORKSPACE");
    for (const escape of ESCAPES) expect(body.output, escape).not.toContain(escape);
    expect(readFileSync(join(h.workspace, ".git", "config"), "utf8")).not.toContain(FSMONITOR);
  });
});

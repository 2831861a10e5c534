/**
 * Attack class: an allow-listed command run in a folder that belongs to another git repository.
 *
 * Git finds its repository by walking up from its folder and follows that repository's config,
 * which can name programs to run: `core.fsmonitor` runs on every `git status`. A folder of the
 * workspace holding its own `.git`, or laid out as a git directory itself (HEAD, config, objects,
 * refs: a bare repository, which a cloned repository can carry as plain files), turns the
 * allow-listed `git status` into any program its author wanted. Each attack is first shown to
 * work with plain `git status` in that folder (its marker file appears), then through Arcadia's
 * execute_command, which asks instead (answered Deny here): the marker stays absent.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const hasGit = spawnSync("git", ["--version"]).status === 0;
/** Plain git, as a user's terminal has it, without this machine's own git config getting in the way. */
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, stdio: "pipe" });

function marker(): string {
  return join(h.outside, "MARKER");
}

/** A config that makes `git status` create the marker. */
function hostileConfig(extra = ""): string {
  return `[core]\n\trepositoryformatversion = 0\n${extra}\tfsmonitor = touch ${marker()}; true\n`;
}

/** The workspace as the user's own repository. */
function userRepo(): void {
  git(h.workspace, "init", "-q");
}

/** Shows the attack working with plain git in `cwd`, then clears the marker. */
function attackWorksUnprotected(cwd: string): void {
  expect(existsSync(marker())).toBe(false);
  spawnSync("git", ["status"], { cwd, env: gitEnv, stdio: "ignore" });
  expect(existsSync(marker()), "plain git status in that folder runs the hostile fsmonitor").toBe(true);
  rmSync(marker());
}

async function gitStatusThroughArcadia(cwd: string) {
  const result = await h.call("execute_command", { command: "git status", cwd });
  return { ...result, reason: h.asked.at(-1)?.reason ?? "" };
}

describe.skipIf(!hasGit || process.platform === "win32")("git status in another repository inside the workspace asks", () => {
  it("a nested folder with its own .git whose config sets core.fsmonitor", async () => {
    h = await startPolicyHarness();
    userRepo();
    const evil = join(h.workspace, "vendor", "evil");
    mkdirSync(evil, { recursive: true });
    git(evil, "init", "-q");
    writeFileSync(join(evil, ".git", "config"), hostileConfig());
    attackWorksUnprotected(evil);

    const { body, reason } = await gitStatusThroughArcadia("vendor/evil");
    expect(body.status).toBe("denied");
    expect(h.asked).toHaveLength(1);
    expect(h.asked[0]).toMatchObject({ kind: "command", subject: "git status" });
    expect(reason).toContain(join(evil, ".git"));
    expect(h.runner.started).toEqual([]);
    expect(existsSync(marker())).toBe(false);
  });

  it("a sub-folder of such a nested repository (git walks up to it)", async () => {
    h = await startPolicyHarness();
    userRepo();
    const evil = join(h.workspace, "vendor", "evil");
    mkdirSync(join(evil, "src", "deep"), { recursive: true });
    git(evil, "init", "-q");
    writeFileSync(join(evil, ".git", "config"), hostileConfig());
    attackWorksUnprotected(join(evil, "src", "deep"));

    const { body } = await gitStatusThroughArcadia("vendor/evil/src/deep");
    expect(body.status).toBe("denied");
    expect(existsSync(marker())).toBe(false);
  });

  it("a folder laid out as a git directory (a bare repository made of plain files)", async () => {
    h = await startPolicyHarness();
    userRepo();
    const bare = join(h.workspace, "fixtures", "repo");
    mkdirSync(join(bare, "objects"), { recursive: true });
    mkdirSync(join(bare, "refs"));
    writeFileSync(join(bare, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(bare, "config"), hostileConfig("\tbare = false\n\tworktree = .\n"));
    attackWorksUnprotected(bare);

    const { body, reason } = await gitStatusThroughArcadia("fixtures/repo");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/shaped like a git directory/);
    expect(existsSync(marker())).toBe(false);
  });

  it("a .git file (gitfile) pointing at a repository elsewhere", async () => {
    h = await startPolicyHarness();
    userRepo();
    const elsewhere = join(h.outside, "elsewhere.git");
    git(h.outside, "init", "-q", "--bare", elsewhere);
    writeFileSync(join(elsewhere, "config"), hostileConfig("\tbare = false\n"));
    const sub = join(h.workspace, "sub");
    mkdirSync(sub);
    writeFileSync(join(sub, ".git"), `gitdir: ${elsewhere}\n`);
    attackWorksUnprotected(sub);

    expect((await gitStatusThroughArcadia("sub")).body.status).toBe("denied");
    expect(existsSync(marker())).toBe(false);
  });

  it("a folder inside the workspace's own .git (git takes .git for the repository itself)", async () => {
    h = await startPolicyHarness();
    userRepo();
    const { body, reason } = await gitStatusThroughArcadia(".git/refs");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/inside a \.git folder/);
  });

  it("the check is made when the command runs: a .git that appears after an earlier run asks", async () => {
    h = await startPolicyHarness();
    userRepo();
    const later = join(h.workspace, "later");
    mkdirSync(later);
    expect((await gitStatusThroughArcadia("later")).body.status).toBe("completed");
    git(later, "init", "-q");
    writeFileSync(join(later, ".git", "config"), hostileConfig());
    expect((await gitStatusThroughArcadia("later")).body.status).toBe("denied");
    expect(existsSync(marker())).toBe(false);
  });
});

describe.skipIf(!hasGit || process.platform === "win32")("controls: the workspace's own repository runs unasked", () => {
  it("git status at the workspace root, and in an ordinary sub-folder", async () => {
    h = await startPolicyHarness();
    userRepo();
    mkdirSync(join(h.workspace, "src"));
    writeFileSync(join(h.workspace, "src", "a.ts"), "export {};\n");
    const root = await h.call("execute_command", { command: "git status" });
    expect(root.body).toMatchObject({ status: "completed", exit_code: 0 });
    expect(root.body.output).toMatch(/No commits yet|On branch/);
    const sub = await h.call("execute_command", { command: "git status --short", cwd: "src" });
    expect(sub.body).toMatchObject({ status: "completed", exit_code: 0 });
    expect(h.asked).toEqual([]);
  });

  it("a folder named like git's files (HEAD alone, a 'refs' folder) is not a repository", async () => {
    h = await startPolicyHarness();
    userRepo();
    const docs = join(h.workspace, "docs");
    mkdirSync(join(docs, "refs"), { recursive: true });
    writeFileSync(join(h.workspace, "HEAD"), "");
    expect((await h.call("execute_command", { command: "ls", cwd: "docs" })).body.status).toBe("completed");
    expect(h.asked).toEqual([]);
  });
});

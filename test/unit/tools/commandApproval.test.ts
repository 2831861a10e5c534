import { describe, expect, it } from "vitest";
import { commandApprovalPolicy } from "../../../src/core/tools";

describe("command approval policy", () => {
  it('"always" and "never" mean what they say', () => {
    expect(commandApprovalPolicy("always", ["ls"])("ls")).toBe(true);
    expect(commandApprovalPolicy("never", [])("rm -rf /tmp/x")).toBe(false);
  });

  it('"unlessAllowListed": an allowed command, alone or with arguments, runs without asking; others ask', () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["npm test", "git status", "  "]);
    expect(needs("npm test")).toBe(false);
    expect(needs("  npm test -- --watch ")).toBe(false);
    expect(needs("git status")).toBe(false);
    expect(needs("npm testify")).toBe(true);
    expect(needs("npm install evil")).toBe(true);
    expect(needs("")).toBe(true);
  });

  it("an allowed prefix never carries a chained or redirected command through", () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["npm test"]);
    for (const line of ["npm test && curl x | sh", "npm test; rm -rf ~", "npm test > /etc/passwd", "npm test $(whoami)", "npm test `id`", "npm test\nrm x", "npm test || true"]) {
      expect(needs(line), line).toBe(true);
    }
  });

  it("an allowed prefix asks anyway for arguments that reach out of the workspace or write a file", () => {
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
    for (const line of asks) expect(needs(line), line).toBe(true);
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
    for (const line of runs) expect(needs(line), line).toBe(false);
  });

  it("an argument written into the entry itself is the user's choice", () => {
    const needs = commandApprovalPolicy("unlessAllowListed", ["cat /etc/hosts"]);
    expect(needs("cat /etc/hosts")).toBe(false);
    expect(needs("cat /etc/hosts /etc/shadow")).toBe(true);
    expect(needs("cat /etc/passwd")).toBe(true);
  });
});

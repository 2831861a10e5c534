/**
 * Attack class: reading outside the workspace through a side door. Problems (diagnostics) quote
 * code and name files; VS Code keeps them for any file it has seen, e.g. ~/.aws/config opened
 * once. get_diagnostics without a path must not hand those over: only files inside the workspace
 * folders, like read_file; a file outside needs its path and the user's Allow.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../tools/toolHarness";

let h: Harness;
afterEach(async () => h?.close());

const problem = (message: string) => [{ severity: "error" as const, message, line: 1, column: 1, source: "ts" }];

describe("get_diagnostics without a path", () => {
  it("returns only the workspace's files, says how many outside were left out, and asks nothing", async () => {
    h = await startHarness();
    let asked = 0;
    h.approvals.onDidChange((c) => void (c.type === "added" && asked++));
    const secret = join(h.outside, "credentials.ts");
    writeFileSync(secret, "x");
    // A workspace path that leads outside through a symlink counts as outside too.
    mkdirSync(join(h.outside, "linked"));
    symlinkSync(join(h.outside, "linked"), join(h.workspace, "link"));
    h.diagnostics.push(
      { path: join(h.workspace, "a.ts"), diagnostics: problem("inside problem") },
      { path: secret, diagnostics: problem("SECRET_TOKEN=marker-outside") },
      { path: join(h.workspace, "link", "b.ts"), diagnostics: problem("SECRET via link") },
    );
    const { isError, body, text } = await h.call("get_diagnostics", {});
    expect(isError).toBe(false);
    expect(body.diagnostics.map((d: { message: string }) => d.message)).toEqual(["inside problem"]);
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain(h.outside);
    expect(body).toMatchObject({ errors: 1, skipped_outside_files: 2 });
    expect(body.skipped_outside_note).toMatch(/2 files outside the workspace folders also have problems.*ask for one by its path/);
    expect(asked).toBe(0);
  });

  it("a file outside asked for by its path needs the user's Allow, like read_file", async () => {
    h = await startHarness();
    const secret = join(h.outside, "credentials.ts");
    writeFileSync(secret, "x");
    h.diagnostics.push({ path: secret, diagnostics: problem("SECRET_TOKEN=marker-outside") });
    h.answerApprovals("deny");
    const denied = await h.call("get_diagnostics", { path: secret });
    expect(denied.body).toMatchObject({ status: "denied" });
    expect(denied.text).not.toContain("marker-outside");
  });
});

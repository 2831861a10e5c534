import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { glob } from "tinyglobby";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./toolHarness";

let h: Harness;
afterEach(async () => h?.close());

function files(spec: Record<string, string | Buffer>) {
  for (const [rel, content] of Object.entries(spec)) {
    const path = join(h.workspace, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
  }
}

describe("read_file", () => {
  it("returns a window of lines with where to go on", async () => {
    h = await startHarness();
    files({ "src/a.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n" });
    const { body } = await h.call("read_file", { path: "src/a.txt", offset: 3, limit: 2 });
    expect(body).toMatchObject({ status: "ok", path: "src/a.txt", start_line: 3, end_line: 4, total_lines: 10, next_offset: 5, content: "line 3\nline 4" });
    const rest = await h.call("read_file", { path: join(h.workspace, "src/a.txt"), offset: 9 });
    expect(rest.body).toMatchObject({ start_line: 9, end_line: 10, content: "line 9\nline 10" });
    expect(rest.body.next_offset).toBeUndefined();
  });

  it("says what to do about a missing file, a folder, a binary file, an offset past the end", async () => {
    h = await startHarness();
    files({ "img.png": Buffer.from([0x89, 0x50, 0x00, 0x01]), "short.txt": "one\n" });
    expect((await h.call("read_file", { path: "nope.ts" })).body.message).toMatch(/does not exist\. Check the name with list_files or search_files/);
    expect((await h.call("read_file", { path: "." })).body.message).toMatch(/is a folder: use list_files/);
    expect((await h.call("read_file", { path: "img.png" })).body.message).toMatch(/is a binary file/);
    expect((await h.call("read_file", { path: "short.txt", offset: 5 })).body.message).toMatch(/offset 5 is past the end: .* has 1 lines/);
    expect((await h.call("read_file", { path: "short.txt", offset: 0 })).text).toMatch(/offset is 1-based/);
  });
});

describe("list_files", () => {
  it("lists a folder; recursively it skips node_modules and .git and does not follow symlinks", async () => {
    h = await startHarness();
    files({ "a.ts": "", "src/b.ts": "", "src/deep/c.ts": "", "node_modules/x/index.js": "", ".git/HEAD": "", [join("..", "outside", "o.txt")]: "" });
    symlinkSync(h.outside, join(h.workspace, "link-out"));
    // A link out of the workspace by its name alone (test/unit/security/existenceOracles.test.ts).
    const flat = await h.call("list_files", {});
    expect(flat.body.entries).toEqual([".git/", "a.ts", "link-out", "node_modules/", "src/"]);
    const deep = await h.call("list_files", { recursive: true });
    expect(deep.body.entries).toEqual([".git/", "a.ts", "link-out", "node_modules/", "src/", "src/b.ts", "src/deep/", "src/deep/c.ts"]);
    const capped = await h.call("list_files", { recursive: true, limit: 3 });
    expect(capped.body).toMatchObject({ entries: [".git/", "a.ts", "link-out"], truncated: true });
    expect((await h.call("list_files", { path: "a.ts" })).body.message).toMatch(/is a file, not a folder: use read_file/);
  });
});

describe("search_files", () => {
  it("finds literal text by default, regular expressions on request, in files matching a glob", async () => {
    h = await startHarness();
    files({
      "src/a.ts": "const x = foo(1);\nfoo.bar\n",
      "src/b.js": "foo(2)\n",
      "docs/readme.md": "foo( here\n",
      "bin.dat": Buffer.from([0, 1, 2, 102, 111, 111, 40]),
    });
    const literal = await h.call("search_files", { pattern: "foo(" });
    expect(literal.body.matches).toEqual([
      { path: "docs/readme.md", line: 1, text: "foo( here" },
      { path: "src/a.ts", line: 1, text: "const x = foo(1);" },
      { path: "src/b.js", line: 1, text: "foo(2)" },
    ]);
    expect(literal.body.skipped_binary_files).toBe(1);
    const regex = await h.call("search_files", { pattern: "foo\\(\\d\\)", regex: true, glob: "**/*.ts" });
    expect(regex.body.matches).toEqual([{ path: "src/a.ts", line: 1, text: "const x = foo(1);" }]);
    const capped = await h.call("search_files", { pattern: "FOO", case_sensitive: false, max_results: 2 });
    expect(capped.body).toMatchObject({ truncated: true });
    expect(capped.body.matches).toHaveLength(2);
    const oneFile = await h.call("search_files", { pattern: "bar", path: "src/a.ts" });
    expect(oneFile.body.matches).toEqual([{ path: "src/a.ts", line: 2, text: "foo.bar" }]);
  });

  it("does not read files that symlinks lead to outside the workspace, and says how many it skipped", async () => {
    h = await startHarness();
    files({ "src/a.ts": "token = 1\n" });
    writeFileSync(join(h.outside, "id_rsa"), "token = PRIVATE KEY\n");
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "key.txt"));
    symlinkSync(h.outside, join(h.workspace, "dir-link"));
    symlinkSync(join(h.workspace, "src", "a.ts"), join(h.workspace, "inner-link.ts"));
    // VS Code's findFiles follows symlinked folders (search.followSymlinks defaults to true).
    h.ports.files.findFiles = async (root, pattern, limit) =>
      (await glob(pattern ?? "**/*", { cwd: root, absolute: true, onlyFiles: true, followSymbolicLinks: true })).sort().slice(0, limit);
    let approvals = 0;
    h.approvals.onDidChange((c) => c.type === "added" && approvals++);
    const { body } = await h.call("search_files", { pattern: "token" });
    expect(JSON.stringify(body)).not.toContain("PRIVATE");
    expect(body.matches).toEqual([
      { path: "inner-link.ts", line: 1, text: "token = 1" },
      { path: "src/a.ts", line: 1, text: "token = 1" },
    ]);
    expect(body.skipped_outside_files).toBe(2);
    expect(body.skipped_outside_note).toMatch(/2 files were not searched: symlinks leading out of the searched folder and the workspace/);
    expect(approvals).toBe(0);

    // A folder outside that the user allowed is searched, links into it included.
    h.answerApprovals("allow");
    const allowed = await h.call("search_files", { pattern: "token", path: "dir-link" });
    expect(allowed.body.matches).toEqual([{ path: join(h.outside, "id_rsa"), line: 1, text: "token = PRIVATE KEY" }]);
    expect(allowed.body.skipped_outside_files).toBeUndefined();
    expect(approvals).toBe(1);
  });

  it("a broken regular expression gets a message naming the fix", async () => {
    h = await startHarness();
    const { isError, body } = await h.call("search_files", { pattern: "foo(", regex: true });
    expect(isError).toBe(true);
    expect(body.message).toMatch(/not a valid regular expression .* set regex: false to search for the text literally/);
  });
});

describe("paths outside the workspace", () => {
  it("need the user's Allow; Deny is an error result naming the real path, and nothing is read", async () => {
    h = await startHarness();
    writeFileSync(join(h.outside, "secret.txt"), "top secret\n");
    h.answerApprovals("deny");
    const asked = h.nextApproval();
    const { isError, body } = await h.call("read_file", { path: "../outside/secret.txt" });
    expect(await asked).toMatchObject({ kind: "path", subject: `Read: ${join(h.outside, "secret.txt")}`, agentId: "agent-1" });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "denied" });
    expect(body.message).toMatch(/denied access to .*secret\.txt, which is outside the workspace folders/);
    expect(JSON.stringify(body)).not.toContain("top secret");
  });

  it("Allow lets the call go on", async () => {
    h = await startHarness();
    writeFileSync(join(h.outside, "notes.txt"), "allowed\n");
    h.answerApprovals("allow");
    expect((await h.call("read_file", { path: join(h.outside, "notes.txt") })).body.content).toBe("allowed");
  });

  it("a symlink inside the workspace that leads outside counts as outside, also for a file not yet there", async () => {
    h = await startHarness();
    writeFileSync(join(h.outside, "target.txt"), "outside\n");
    symlinkSync(join(h.outside, "target.txt"), join(h.workspace, "innocent.txt"));
    symlinkSync(h.outside, join(h.workspace, "dir-link"));
    h.answerApprovals("deny");
    const read = await h.call("read_file", { path: "innocent.txt" });
    expect(read.body.message).toMatch(/target\.txt, which is outside .* \(it is where .*innocent\.txt leads through a symlink\)/);
    const write = await h.call("write_file", { path: "dir-link/new/file.txt", content: "x" });
    expect(write.body).toMatchObject({ status: "denied" });
    expect(write.body.message).toContain(join(h.outside, "new/file.txt"));
    expect(h.diffs.proposals).toEqual([]);
  });

  it("a dangling symlink that leads outside asks for its target, and Deny writes nothing there", async () => {
    h = await startHarness();
    // The targets do not exist: realpath fails on the link, which must not pass for a new file.
    symlinkSync(join("..", "outside", "evil.txt"), join(h.workspace, "link.txt"));
    symlinkSync("link.txt", join(h.workspace, "link-to-link.txt"));
    symlinkSync(join(h.outside, "new-dir"), join(h.workspace, "dir-link"));
    h.answerApprovals("deny");
    const asked: string[] = [];
    h.approvals.onDidChange((c) => c.type === "added" && asked.push(c.approval.subject));
    for (const path of ["link.txt", "link-to-link.txt"]) {
      const write = await h.call("write_file", { path, content: "pwned\n" });
      expect(write.body, path).toMatchObject({ status: "denied" });
      expect(write.body.message, path).toContain(join(h.outside, "evil.txt"));
    }
    expect((await h.call("write_file", { path: "dir-link/sub/x.txt", content: "x" })).body).toMatchObject({ status: "denied" });
    expect(asked).toEqual([
      `Write: ${join(h.outside, "evil.txt")}`,
      `Write: ${join(h.outside, "evil.txt")}`,
      `Write: ${join(h.outside, "new-dir", "sub", "x.txt")}`,
    ]);
    expect(h.diffs.proposals).toEqual([]);
    expect(existsSync(join(h.outside, "evil.txt"))).toBe(false);
  });

  it("Allow on a dangling link's outside target writes the target (after the diff); a dangling link inside asks nothing", async () => {
    h = await startHarness();
    symlinkSync(join("..", "outside", "evil.txt"), join(h.workspace, "link.txt"));
    symlinkSync(join("sub", "later.txt"), join(h.workspace, "inner.txt"));
    h.answerApprovals("allow");
    let approvals = 0;
    h.approvals.onDidChange((c) => c.type === "added" && approvals++);
    const outsideDiff = h.diffs.next();
    const outsideWrite = h.call("write_file", { path: "link.txt", content: "allowed\n" });
    h.diffs.accept((await outsideDiff).id);
    expect((await outsideWrite).body).toMatchObject({ status: "ok" });
    expect(readFileSync(join(h.outside, "evil.txt"), "utf8")).toBe("allowed\n");
    expect(approvals).toBe(1);

    const innerDiff = h.diffs.next();
    const innerWrite = h.call("write_file", { path: "inner.txt", content: "inside\n" });
    const diff = await innerDiff;
    expect(diff.path).toBe(join(h.workspace, "sub", "later.txt"));
    h.diffs.accept(diff.id);
    expect((await innerWrite).body).toMatchObject({ status: "ok" });
    expect(approvals).toBe(1);
  });

  it("a symlink loop is a clear error, not a hang", async () => {
    h = await startHarness();
    symlinkSync("b", join(h.workspace, "a"));
    symlinkSync("a", join(h.workspace, "b"));
    const { isError, body } = await h.call("write_file", { path: "a", content: "x" });
    expect(isError).toBe(true);
    expect(body.message).toMatch(/Cannot resolve "a"/);
  });

  it("with no workspace folder, a relative path is refused with the fix", async () => {
    h = await startHarness({ noFolder: true });
    expect((await h.call("read_file", { path: "a.ts" })).body.message).toMatch(/relative, but no workspace folder is open .* give an absolute path/);
  });
});

describe("get_diagnostics and open_file", () => {
  it("reports the problems of one file or of all, errors first, relative paths", async () => {
    h = await startHarness();
    const a = join(h.workspace, "a.ts");
    const b = join(h.workspace, "b.ts");
    h.diagnostics.push(
      { path: a, diagnostics: [{ severity: "warning", message: "unused x", line: 3, column: 7, source: "ts" }] },
      { path: b, diagnostics: [{ severity: "error", message: "Cannot find name 'y'", line: 1, column: 1, source: "ts", code: "2304" }] },
    );
    const all = await h.call("get_diagnostics", {});
    expect(all.body).toMatchObject({ errors: 1, warnings: 1, others: 0 });
    expect(all.body.diagnostics.map((d: { path: string }) => d.path)).toEqual(["b.ts", "a.ts"]);
    const one = await h.call("get_diagnostics", { path: "a.ts" });
    expect(one.body.diagnostics).toEqual([{ severity: "warning", message: "unused x", line: 3, column: 7, source: "ts", path: "a.ts" }]);
    expect((await h.call("get_diagnostics", { min_severity: "error" })).body.diagnostics).toHaveLength(1);
    expect((await h.call("get_diagnostics", { min_severity: "fatal" })).text).toMatch(/min_severity must be one of/);
  });

  it("opens an existing file at a line, and refuses a missing one", async () => {
    h = await startHarness();
    files({ "a.ts": "x\n" });
    expect((await h.call("open_file", { path: "a.ts", line: 1 })).body).toMatchObject({ status: "ok", path: "a.ts", line: 1 });
    expect(h.opened).toEqual([{ path: join(h.workspace, "a.ts"), line: 1 }]);
    expect((await h.call("open_file", { path: "b.ts" })).body.message).toMatch(/does not exist/);
    expect(h.opened).toHaveLength(1);
  });
});

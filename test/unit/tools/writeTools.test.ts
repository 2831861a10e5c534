import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./toolHarness";

let h: Harness;
afterEach(async () => h?.close());

describe("write_file", () => {
  it("shows the new file as a diff and writes it only after Accept", async () => {
    h = await startHarness();
    const proposed = h.diffs.next();
    const running = h.call("write_file", { path: "src/new.ts", content: "export const x = 1;\n" });
    const diff = await proposed;
    expect(diff).toMatchObject({ path: join(h.workspace, "src/new.ts"), original: undefined, proposed: "export const x = 1;\n", agentId: "agent-1" });
    expect(existsSync(join(h.workspace, "src/new.ts"))).toBe(false);
    expect(h.tracker.calls()[0]?.diffId).toBe(diff.id);
    h.diffs.accept(diff.id);
    expect((await running).body).toMatchObject({ status: "ok", path: "src/new.ts", changed: true, created: true });
    expect(readFileSync(join(h.workspace, "src/new.ts"), "utf8")).toBe("export const x = 1;\n");
  });

  it("Reject leaves the file as it was and says the user rejected it", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "a.txt"), "old\n");
    const proposed = h.diffs.next();
    const running = h.call("write_file", { path: "a.txt", content: "new\n" });
    const diff = await proposed;
    expect(diff.original).toBe("old\n");
    h.diffs.reject(diff.id);
    const { isError, body } = await running;
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "denied" });
    expect(body.message).toMatch(/The user rejected the change to a\.txt; nothing was written/);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("old\n");
  });

  it("never overwrites a file that changed while its diff was on screen", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "a.txt"), "old\n");
    const proposed = h.diffs.next();
    const running = h.call("write_file", { path: "a.txt", content: "agent's\n" });
    const diff = await proposed;
    writeFileSync(join(h.workspace, "a.txt"), "the user's edit\n");
    h.diffs.accept(diff.id);
    expect((await running).body.message).toMatch(/changed while the diff was under review, so nothing was written/);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("the user's edit\n");
  });
});

describe("apply_diff", () => {
  const source = "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n";

  it("applies search/replace edits in order, shows the result as a diff, writes on Accept", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "math.js"), source);
    const proposed = h.diffs.next();
    const running = h.call("apply_diff", {
      path: "math.js",
      edits: [
        { search: "  return a + b;", replace: "  return a + b; // sum" },
        { search: "function sub(a, b)", replace: "function subtract(a, b)" },
      ],
    });
    const diff = await proposed;
    expect(diff.original).toBe(source);
    expect(diff.proposed).toBe(source.replace("a + b;", "a + b; // sum").replace("function sub(", "function subtract("));
    h.diffs.accept(diff.id);
    expect((await running).body).toMatchObject({ status: "ok", changed: true, created: false, replacements: 2 });
    expect(readFileSync(join(h.workspace, "math.js"), "utf8")).toBe(diff.proposed);
  });

  it("a diff that does not apply names the failing edit, proposes nothing and writes nothing", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "math.js"), source);
    const missing = await h.call("apply_diff", {
      path: "math.js",
      edits: [
        { search: "function add", replace: "function plus" },
        { search: "  return a * b;", replace: "x" },
      ],
    });
    expect(missing.isError).toBe(true);
    expect(missing.body.message).toMatch(
      /^edit 2 of 2 does not apply: its search text was not found in math\.js \(after the edits before it\)\. It begins: " {2}return a \* b;"\. Read the file again/,
    );
    const ambiguous = await h.call("apply_diff", { path: "math.js", edits: [{ search: "(a, b)", replace: "(x, y)" }] });
    expect(ambiguous.body.message).toMatch(/edit 1 of 1 does not apply: its search text occurs 2 times .* set replace_all: true/);
    expect(h.diffs.proposals).toEqual([]);
    expect(readFileSync(join(h.workspace, "math.js"), "utf8")).toBe(source);
    const all = h.diffs.next();
    const running = h.call("apply_diff", { path: "math.js", edits: [{ search: "(a, b)", replace: "(x, y)", replace_all: true }] });
    expect((await all).proposed.match(/\(x, y\)/g)).toHaveLength(2);
    h.diffs.reject(h.diffs.proposals[0]!.id);
    await running;
  });

  it("accepts LF search text in a CRLF file, and keeps the CRLFs", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "win.txt"), "one\r\ntwo\r\nthree\r\n");
    const proposed = h.diffs.next();
    const running = h.call("apply_diff", { path: "win.txt", edits: [{ search: "one\ntwo", replace: "1\n2" }] });
    expect((await proposed).proposed).toBe("1\r\n2\r\nthree\r\n");
    h.diffs.reject(h.diffs.proposals[0]!.id);
    await running;
  });

  it("refuses a missing file (pointing to write_file) and empty edits", async () => {
    h = await startHarness();
    expect((await h.call("apply_diff", { path: "nope.js", edits: [{ search: "a", replace: "b" }] })).body.message).toMatch(
      /does not exist: apply_diff edits existing files; use write_file/,
    );
    expect((await h.call("apply_diff", { path: "nope.js", edits: [] })).text).toMatch(/edits is empty: give at least one \{search, replace\}/);
    expect((await h.call("apply_diff", { path: "nope.js", edits: [{ search: "", replace: "b" }] })).text).toMatch(/search text is empty/);
  });
});

describe("force-finishing a write from the panel", () => {
  it("Complete accepts the pending diff: the file is written and the real result returns", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const proposed = h.diffs.next();
    const running = h.call("write_file", { path: "done.txt", content: "accepted from the panel\n" });
    await proposed;
    expect(h.tracker.completeCall((await call).id)).toBe(true);
    expect((await running).body).toMatchObject({ status: "ok", changed: true, created: true });
    expect(readFileSync(join(h.workspace, "done.txt"), "utf8")).toBe("accepted from the panel\n");
    expect(h.tracker.calls()).toEqual([]);
  });

  it("apply_diff declares the same Complete: its card says Complete writes the change, and Complete accepts the diff", async () => {
    h = await startHarness();
    writeFileSync(join(h.workspace, "a.txt"), "old\n");
    const call = h.nextCall();
    const proposed = h.diffs.next();
    const running = h.call("apply_diff", { path: "a.txt", edits: [{ search: "old", replace: "new" }] });
    await proposed;
    const started = await call;
    expect(started.completeHint).toMatch(/Accept the proposed change and write it/);
    expect(h.tracker.completeCall(started.id)).toBe(true);
    expect((await running).body).toMatchObject({ status: "ok", changed: true, replacements: 1 });
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("new\n");
  });

  it("Cancel rejects the pending diff: nothing is written, the answer is cancelled", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const proposed = h.diffs.next();
    const running = h.call("write_file", { path: "never.txt", content: "x" });
    await proposed;
    h.tracker.cancelCall((await call).id);
    expect((await running).body).toMatchObject({ status: "cancelled", tool: "write_file" });
    expect(existsSync(join(h.workspace, "never.txt"))).toBe(false);
  });
});

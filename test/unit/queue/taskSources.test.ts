/**
 * Tasks from an input (one per paragraph) and from a Markdown task list (its unchecked items):
 * what a user reading their text would count as tasks, and every bad one named with its line and
 * kept, never dropped — an empty task, a task that would not type as it reads, a list with nothing
 * left to do. And reading the task file itself: missing, a folder, unreadable, too big, not text.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftProblemLine, openProblem, readTaskFile, tasksFromParagraphs, tasksFromTaskList } from "../../../src/core/queue";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const texts = (read: { drafts: { text: string }[] }) => read.drafts.map((d) => d.text);

describe("tasks one per paragraph", () => {
  it("makes one task of each paragraph, its wrapped lines joined with a space, CRLF or LF", () => {
    const read = tasksFromParagraphs("Fix the login\r\nredirect.\r\n\r\n\r\n  Add a dark theme  \n\nWrite the\n   changelog");
    expect(read.drafts).toEqual([
      { text: "Fix the login redirect.", line: 1 },
      { text: "Add a dark theme", line: 5 },
      { text: "Write the changelog", line: 7 },
    ]);
  });

  it("names a paragraph that would not type as it reads, with its line, and keeps it", () => {
    const read = tasksFromParagraphs("Fix the bug\n\n/clear everything\n\nRun it\u202E backwards\n\nUpdate the docs \\");
    expect(read.drafts.map((d) => [d.line, d.problem !== undefined])).toEqual([
      [1, false],
      [3, true],
      [5, true],
      [7, true],
    ]);
    expect(read.drafts[1]!.problem).toBe("A task that starts with / would be a slash command for Claude Code, not a task: start it with words.");
    expect(draftProblemLine(read.drafts[2]!)).toMatch(/^Line 5 \("Run it\u202E backwards"\): It would not be typed as you see it: Run it\\u202E backwards/);
  });

  it("says there is no task in a text of blanks", () => {
    expect(tasksFromParagraphs(" \n\t\n").nothing).toBe("No task: write one task per paragraph (a blank line between two tasks).");
  });
});

describe("tasks from a Markdown task list", () => {
  it("takes the unchecked items, never the checked ones, nor anything in a code fence", () => {
    const list = [
      "# Today",
      "",
      "- [ ] Fix the login redirect",
      "- [x] Ship 1.2",
      "* [X] Tag it",
      "1. [ ] Add a dark theme",
      "",
      "```md",
      "- [ ] an example inside a fence",
      "```",
      "~~~",
      "- [ ] and another",
      "~~~",
      "+ [ ] Update the changelog",
      "- plain item, not a task",
      "- [] not a checkbox either",
    ].join("\r\n");
    const read = tasksFromTaskList(list);
    expect(read.drafts).toEqual([
      { text: "Fix the login redirect", line: 3 },
      { text: "Add a dark theme", line: 6 },
      { text: "Update the changelog", line: 14 },
    ]);
  });

  it("queues nested items under their heading's words, and a task's details with it", () => {
    const list = [
      "- [ ] Auth",
      "  - [ ] add login",
      "  - [x] add signup",
      "  - [ ] add logout",
      "    - it must clear the cookie",
      "- [x] Billing",
      "  - [ ] refund button",
      "- [ ] Search: make it",
      "  case-insensitive",
    ].join("\n");
    expect(texts(tasksFromTaskList(list))).toEqual([
      "Auth: add login",
      "Auth: add logout; it must clear the cookie",
      "Billing: refund button",
      "Search: make it case-insensitive",
    ]);
  });

  it("names an empty item and an item that would not type as it reads, with their lines, and keeps them", () => {
    const read = tasksFromTaskList("- [ ] Fix it\n- [ ]\n- [ ] !rm -rf build\n- [ ] tab\there");
    expect(read.drafts.map(draftProblemLine)).toEqual([
      'Line 1 ("Fix it"): ready',
      "Line 2: An empty task: write what to ask after - [ ].",
      'Line 3 ("!rm -rf build"): A task that starts with ! would be a shell command run without asking for Claude Code, not a task: start it with words.',
      'Line 4 ("tab\there"): It would not be typed as you see it: tab⇥here (control or invisible characters, a line break, or a run of 4+ blanks). Remove them.',
    ]);
  });

  it("says why nothing is queued from a list that is all done, or is no task list", () => {
    expect(tasksFromTaskList("- [x] a\n- [X] b\n").nothing).toBe("No unchecked item (- [ ] …): all 2 items are checked, nothing to queue.");
    expect(tasksFromTaskList("Just notes.\n\n```\n- [ ] in a fence\n```").nothing).toBe(
      "No task list item (- [ ] …) in it: write one task per line as - [ ] what to ask.",
    );
  });
});

describe("the task file", () => {
  it("reads a UTF-8 list, a BOM dropped", async () => {
    const file = join(tempDir(), "tasks.md");
    writeFileSync(file, "\uFEFF- [ ] Fix the login\n");
    expect(await readTaskFile(file)).toEqual({ ok: true, text: "- [ ] Fix the login\n" });
  });

  it("says which file is missing, is a folder, too big or not text, and what to do", async () => {
    const dir = tempDir();
    expect(await readTaskFile(join(dir, "tasks.md"))).toEqual({
      ok: false,
      problem: `tasks.md is not there (${join(dir, "tasks.md")}): pick the task list again.`,
    });
    mkdirSync(join(dir, "list.md"));
    expect(await readTaskFile(join(dir, "list.md"))).toEqual({ ok: false, problem: "list.md is a folder, not a task list: pick a Markdown file." });
    writeFileSync(join(dir, "big.md"), "x".repeat(2 * 1024 * 1024));
    expect(await readTaskFile(join(dir, "big.md"))).toEqual({ ok: false, problem: "big.md is 2.0 MB: a task list is at most 1 MB. Pick the list itself." });
    writeFileSync(join(dir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(await readTaskFile(join(dir, "image.png"))).toEqual({ ok: false, problem: "image.png is not text (it holds binary data): pick a Markdown file." });
    writeFileSync(join(dir, "latin1.md"), Buffer.from("- [ ] caf\xe9\n", "latin1"));
    expect(await readTaskFile(join(dir, "latin1.md"))).toEqual({ ok: false, problem: "latin1.md is not UTF-8 text: save it as UTF-8, then pick it again." });
  });

  it("says a file it may not read cannot be read, and what to do", async () => {
    const file = join(tempDir(), "secret.md");
    writeFileSync(file, "- [ ] x\n");
    chmodSync(file, 0o000);
    const read = await readTaskFile(file);
    // Root reads any file, so the words are also checked on the error itself.
    if (process.getuid?.() !== 0) expect(read).toEqual({ ok: false, problem: openProblem(file, { code: "EACCES" }) });
    else expect(read.ok).toBe(true);
    expect(openProblem(file, Object.assign(new Error("EACCES"), { code: "EACCES" }))).toBe(
      `secret.md cannot be read: permission denied (${file}). Allow reading it, or pick another file.`,
    );
  });
});

/** A review comment follows its lines when the agent edits around them, and knows when they changed. */
import { describe, expect, it } from "vitest";
import { anchorAt, lineKey, locate, splitLines } from "../../../src/core/review/lineAnchor";

const file = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe("finding a commented line again", () => {
  it("an untouched file: the same line, unchanged", () => {
    const lines = file(10);
    expect(locate(anchorAt(lines, 4), lines)).toEqual({ line: 4, changed: false });
  });

  it("lines inserted and deleted above it: it moves with its text, unchanged", () => {
    const lines = file(10);
    const anchor = anchorAt(lines, 6);
    expect(locate(anchor, ["import x;", "import y;", ...lines])).toEqual({ line: 8, changed: false });
    expect(locate(anchor, lines.slice(3))).toEqual({ line: 3, changed: false });
  });

  it("the commented line edited: changed, placed where it was (after the lines that stood before it)", () => {
    const lines = file(10);
    const anchor = anchorAt(lines, 5);
    const edited = [...lines.slice(0, 5), "line 6, fixed", ...lines.slice(6)];
    expect(locate(anchor, edited)).toEqual({ line: 5, changed: true });
    expect(locate(anchor, ["new first line", ...edited])).toEqual({ line: 6, changed: true });
  });

  it("the commented line deleted: changed", () => {
    const lines = file(10);
    expect(locate(anchorAt(lines, 5), [...lines.slice(0, 5), ...lines.slice(6)]).changed).toBe(true);
  });

  it("a line that appears many times (a bare `}`) is told apart by its neighbours", () => {
    const lines = ["function a() {", "  return 1;", "}", "function b() {", "  return 2;", "}", "function c() {", "  return 3;", "}"];
    const anchor = anchorAt(lines, 5); // the `}` of b
    // A function added before b: b's `}` moves two lines down.
    const moved = [...lines.slice(0, 3), "function z() {", "}", ...lines.slice(3)];
    expect(locate(anchor, moved)).toEqual({ line: 7, changed: false });
    // b rewritten around its `}`: other `}` lines remain, but none where b's stood.
    const rewritten = [...lines.slice(0, 3), "const b = () => 2;", ...lines.slice(6)];
    expect(locate(anchor, rewritten).changed).toBe(true);
  });

  it("a unique line whose neighbours all changed is still the same line, unchanged", () => {
    const lines = ["a", "b", "c", "export const title = 'x';", "d", "e", "f"];
    const anchor = anchorAt(lines, 3);
    expect(locate(anchor, ["A", "B", "C", "export const title = 'x';", "D", "E", "F"])).toEqual({ line: 3, changed: false });
  });

  it("a comment on several lines: changed when any of them changed", () => {
    const lines = file(10);
    const anchor = anchorAt(lines, 2, 4);
    expect(anchor.lines).toEqual(["line 3", "line 4", "line 5"]);
    expect(locate(anchor, ["x", ...lines])).toEqual({ line: 3, changed: false });
    expect(locate(anchor, [...lines.slice(0, 3), "line 4 changed", ...lines.slice(4)]).changed).toBe(true);
  });

  it("CRLF and LF read the same; the anchor is clamped to the file", () => {
    expect(splitLines("a\r\nb\nc")).toEqual(["a", "b", "c"]);
    expect(anchorAt(["only"], 7)).toEqual({ line: 0, lines: ["only"], before: [], after: [] });
  });

  it("a very long line (minified) is kept as its start and a hash, and still found, or seen changed by one character", () => {
    const long = "x".repeat(100_000);
    const lines = ["a", long, "b"];
    const anchor = anchorAt(lines, 1);
    expect(anchor.lines[0]!.length).toBeLessThan(300);
    expect(anchor.lines[0]).toBe(lineKey(long));
    expect(locate(anchor, ["new", ...lines])).toEqual({ line: 2, changed: false });
    expect(locate(anchor, ["a", `${long}y`, "b"]).changed).toBe(true);
  });

  it("a file emptied: changed, at its first line", () => {
    expect(locate(anchorAt(file(5), 3), [""])).toEqual({ line: 0, changed: true });
  });
});

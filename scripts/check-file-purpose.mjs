#!/usr/bin/env node
// Fails when a source file under src/ or webview-ui/src/ does not open with its purpose: its first
// non-empty lines must be a comment (a `/* … */` or `/** … */` block, or `//` lines) of at least
// MIN_WORDS words. CLAUDE.md is a map, not a file-by-file inventory: what each file is for is said
// by the file itself, where it cannot go stale unnoticed, and this check keeps that true.
// Tests (`*.test.ts`, `*.test.tsx`) are not checked: their describe() names say what they prove.
//   node scripts/check-file-purpose.mjs [--root <repository>]   (the root: for tests that plant files)
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkedRoot, filesUnder } from "./checkedTree.mjs";

const MIN_WORDS = 4;
const FOLDERS = ["src", "webview-ui/src"];
const SOURCE = /^(?!.*\.test\.tsx?$).*\.tsx?$/;

const root = checkedRoot();

/** The text of the comment the file opens with (blank lines before it skipped), or null when it opens with code. */
export function openingComment(text) {
  const body = text.replace(/^\uFEFF/, "").replace(/^#![^\n]*\n/, "");
  const start = body.search(/\S/);
  if (start < 0) return null;
  const rest = body.slice(start);
  if (rest.startsWith("/*")) {
    const end = rest.indexOf("*/");
    return end < 0 ? null : rest.slice(2, end).replace(/^\s*\*+/gm, " ");
  }
  const lines = [];
  for (const line of rest.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("//")) break;
    lines.push(trimmed.replace(/^\/\/+/, ""));
  }
  return lines.length > 0 ? lines.join(" ") : null;
}

/** Words in the comment: runs of letters or digits (punctuation, `*` and `@ts-…` markers aside). */
const wordsIn = (comment) => comment.replace(/@[\w-]+/g, " ").match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];

const files = FOLDERS.flatMap((folder) => filesUnder(join(root, folder), SOURCE)).map((file) => relative(root, file));
const missing = files
  .filter((where) => {
    const comment = openingComment(readFileSync(join(root, where), "utf8"));
    return comment === null || wordsIn(comment).length < MIN_WORDS;
  })
  .sort();
if (missing.length > 0) {
  console.error(
    `files that do not open with their purpose (a comment of at least ${MIN_WORDS} words before any code, saying what the file is for):\n  ` +
      missing.join("\n  "),
  );
  process.exit(1);
}
console.log(`file purpose: ok (${files.length} files in ${FOLDERS.join(", ")} open with a comment saying what they are for)`);

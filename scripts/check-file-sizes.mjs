#!/usr/bin/env node
// Fails when a source file under src/ or webview-ui/src/ is over 350 lines, listing each one: a
// file that long does more than one job, which makes it hard to read (CLAUDE.md: small files with one
// job). Split it along its seams rather than raising the limit. And when a line there is over 160
// characters: Prettier (printWidth 160, `npm run format`) wraps code, not strings or comments.
// Code files only (.ts .tsx .mts .cts .js .mjs .cjs): the panel's stylesheet is one job however long.
// And when the extension's activate() (src/extension.ts) is over 40 lines: it is wiring only, the
// parts are put together in src/wiring, one file per part.
//   node scripts/check-file-sizes.mjs [--root <repository>]   (the root: for tests that plant files)
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkedRoot, filesUnder } from "./checkedTree.mjs";

const MAX_LINES = 350;
const MAX_LINE_CHARS = 160;
const MAX_ACTIVATE_LINES = 40;
const FOLDERS = ["src", "webview-ui/src"];
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

const root = checkedRoot();

const walk = (dir) => filesUnder(dir, CODE);

/** Lines as an editor numbers them: a last line without its newline still counts. */
function lineCount(text) {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const files = FOLDERS.flatMap((folder) => walk(join(root, folder))).map((file) => ({ where: relative(root, file), text: readFileSync(file, "utf8") }));
const over = files
  .map((f) => ({ where: f.where, lines: lineCount(f.text) }))
  .filter((f) => f.lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
const wide = files.flatMap((f) =>
  f.text.split("\n").flatMap((line, i) => ([...line].length > MAX_LINE_CHARS ? [`${f.where}:${i + 1}: ${[...line].length} characters`] : [])),
);
/** Lines of `export function activate(` to the first line that closes it at the top level ("}"), both counted. */
function activateLines(text) {
  const all = text.split("\n");
  const start = all.findIndex((line) => /^export (async )?function activate\(/.test(line));
  if (start < 0) return 0;
  const end = all.findIndex((line, i) => i > start && line === "}");
  return end < 0 ? all.length - start : end - start + 1;
}
const entry = files.find((f) => f.where === join("src", "extension.ts"));
const activateLength = entry ? activateLines(entry.text) : 0;
const longActivate = activateLength > MAX_ACTIVATE_LINES;
if (longActivate) console.error(`src/extension.ts: activate() is ${activateLength} lines (at most ${MAX_ACTIVATE_LINES}: wiring only; put a part in src/wiring)`);
if (over.length > 0) {
  console.error(`files over ${MAX_LINES} lines (split each along its seams, one job per file):\n  ${over.map((f) => `${f.where}: ${f.lines} lines`).join("\n  ")}`);
}
if (wide.length > 0) console.error(`lines over ${MAX_LINE_CHARS} characters (split the string or the comment):\n  ${wide.join("\n  ")}`);
if (over.length > 0 || wide.length > 0 || longActivate) process.exit(1);
console.log(
  `file sizes: ok (${files.length} files in ${FOLDERS.join(", ")}; none over ${MAX_LINES} lines, no line over ${MAX_LINE_CHARS} characters; ` +
    `activate() ${activateLength} lines)`,
);

#!/usr/bin/env node
// Fails when a source file under src/ or webview-ui/src/ is over 350 lines, listing each one: a
// file that long does more than one job, which makes it hard to read (CLAUDE.md: small files with one
// job). Split it along its seams rather than raising the limit.
// Code files only (.ts .tsx .mts .cts .js .mjs .cjs): the panel's stylesheet is one job however long.
//   node scripts/check-file-sizes.mjs [--root <repository>]   (the root: for tests that plant files)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const MAX_LINES = 350;
const FOLDERS = ["src", "webview-ui/src"];
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

const rootArg = process.argv.indexOf("--root");
const root = rootArg >= 0 ? resolve(process.argv[rootArg + 1]) : resolve(dirname(new URL(import.meta.url).pathname), "..");

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : CODE.test(name) ? [path] : [];
  });
}

/** Lines as an editor numbers them: a last line without its newline still counts. */
function lineCount(text) {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const files = FOLDERS.flatMap((folder) => walk(join(root, folder)));
const over = files
  .map((file) => ({ where: relative(root, file), lines: lineCount(readFileSync(file, "utf8")) }))
  .filter((f) => f.lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
if (over.length > 0) {
  console.error(`files over ${MAX_LINES} lines (split each along its seams, one job per file):\n  ${over.map((f) => `${f.where}: ${f.lines} lines`).join("\n  ")}`);
  process.exit(1);
}
console.log(`file sizes: ok (${files.length} files in ${FOLDERS.join(", ")}; none over ${MAX_LINES} lines)`);

#!/usr/bin/env node
// Fails when CLAUDE.md or a page of docs/ names a repository path that does not exist: the map is read
// by every Claude Code session here, and a path that went stale sends it looking for what is gone.
// What counts as a path: a `backticked` token without spaces that starts with one of the repository's
// top-level entries (`src/…`, `test/…`, `README.md`), checked from the root; a relative path with a
// file extension or a trailing slash (`components/AgentLine.tsx`), found under one of LAYERS; a bare
// code file name (`latch.ts`), found anywhere under LAYERS; and, in a table whose header names folders
// (`| feature | src/core |`), each backticked name in such a column, inside that folder. A placeholder
// segment (`<tool>`, `*`, `…`) ends the check at the folder before it. Anything else (`zod/mini`,
// `/clear`, `~/.claude.json`, the CLI's own file names) is not this repository's path: left alone.
// And when CLAUDE.md is over 20 KB: every Claude Code session here loads all of it, so it stays a map
// (details go to docs/, what a file is for into the file).
//   node scripts/check-map-paths.mjs [--root <repository>]   (the root: for tests that plant files)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { checkedRoot, filesUnder } from "./checkedTree.mjs";

const LAYERS = ["src/core", "src/agents", "src/vscode", "src/shared", "src", "webview-ui/src", "webview-ui", "test", "scripts", "bench"];
const CODE_NAME = /^[\w.-]+\.(ts|tsx|mts|mjs)$/;
const PLACEHOLDER = /[<>*…]/;
/** CLAUDE.md's ceiling, in bytes. */
const MAX_MAP_BYTES = 20 * 1024;
/** Built or machine-made, absent from a fresh clone. */
const NOT_IN_TREE = new Set(["dist", "node_modules"]);

const root = checkedRoot();
const docs = [
  "CLAUDE.md",
  ...(existsSync(join(root, "docs"))
    ? readdirSync(join(root, "docs"))
        .filter((n) => n.endsWith(".md"))
        .map((n) => `docs/${n}`)
    : []),
];
const topLevel = new Set(readdirSync(root));

/** The part of a path before its first placeholder segment ("src/core/tools/<tool>.ts" → "src/core/tools"). */
function beforePlaceholder(path) {
  const segments = path.replace(/\/$/, "").split("/");
  const cut = segments.findIndex((s) => PLACEHOLDER.test(s));
  return (cut < 0 ? segments : segments.slice(0, cut)).join("/");
}

let codeNames;
/** Every code file's name under LAYERS (read once, only when a bare name is met). */
function knownCodeNames() {
  codeNames ??= new Set(LAYERS.flatMap((layer) => filesUnder(join(root, layer), /\.(ts|tsx|mts|mjs)$/)).map((f) => f.split(/[\\/]/).pop()));
  return codeNames;
}

/** Why `token` names no existing path, or null when it does (or is not a repository path at all). */
function problem(token) {
  if (/\s/.test(token) || token.startsWith("/") || token.startsWith("~") || token.startsWith(".") || token.includes("://")) return null;
  const first = token.split("/")[0];
  if (NOT_IN_TREE.has(first)) return null;
  const path = beforePlaceholder(token);
  if (path === "") return null;
  if (topLevel.has(first)) return existsSync(join(root, path)) ? null : "not found";
  if (token.includes("/")) {
    const looksLikePath = /\.\w+$/.test(path) || token.endsWith("/") || path !== token.replace(/\/$/, "");
    if (!looksLikePath) return null;
    return LAYERS.some((layer) => existsSync(join(root, layer, path))) ? null : `not found from the root or under ${LAYERS.join(", ")}`;
  }
  if (CODE_NAME.test(token)) return knownCodeNames().has(token) ? null : "no file of that name under the source folders";
  return null;
}

/** Cells of a Markdown table row ("| a | b |" → ["a", "b"]), or null when the line is not one. */
const cellsOf = (line) =>
  line.startsWith("|")
    ? line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((c) => c.trim())
    : null;

/**
 * A table whose header names folders (`| feature | src/core | src/agents |`) lists, in those columns,
 * names inside them: each backticked name there is checked in its column's folder, bare ones included.
 */
function tableProblems(doc, lines) {
  const found = [];
  let columns = null;
  lines.forEach((line, i) => {
    const cells = cellsOf(line);
    if (cells === null) return void (columns = null);
    if (columns === null) return void (columns = cells.map((c) => (c.includes("/") && existsSync(join(root, c)) ? c : null)));
    cells.forEach((cell, c) => {
      if (!columns[c]) return;
      for (const m of cell.matchAll(/`([^`\n]+)`/g)) {
        if (!existsSync(join(root, columns[c], beforePlaceholder(m[1]))))
          found.push({ where: `${doc}:${i + 1}`, token: m[1], why: `not found in ${columns[c]}` });
      }
    });
  });
  return found;
}

const problems = docs.flatMap((doc) => {
  const lines = readFileSync(join(root, doc), "utf8").split("\n");
  const named = lines.flatMap((line, i) => [...line.matchAll(/`([^`\n]+)`/g)].map((m) => ({ where: `${doc}:${i + 1}`, token: m[1], why: problem(m[1]) })));
  return [...named, ...tableProblems(doc, lines)];
});
const broken = problems.filter((p) => p.why !== null);
const mapBytes = statSync(join(root, "CLAUDE.md")).size;
if (mapBytes > MAX_MAP_BYTES) {
  console.error(`CLAUDE.md is ${mapBytes} bytes, over ${MAX_MAP_BYTES}: keep it a map; move details to docs/, and what a file does into its opening comment`);
}
if (broken.length > 0) {
  console.error(
    `paths named in the map that do not exist (fix the path, or the text):\n  ${broken.map((p) => `${p.where}: \`${p.token}\`: ${p.why}`).join("\n  ")}`,
  );
}
if (broken.length > 0 || mapBytes > MAX_MAP_BYTES) process.exit(1);
console.log(`map paths: ok (CLAUDE.md ${mapBytes} bytes; ${problems.length} backticked names in ${docs.join(", ")}; every repository path among them exists)`);

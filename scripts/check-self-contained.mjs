#!/usr/bin/env node
// Fails when a source, test, script or benchmark reaches a file outside the repository: a fresh
// clone with nothing beside it must pass `npm ci && npm test`. Our own machines have ../shared
// (reading material) beside the clone; a test that read from it passed here and failed everywhere
// else. Two rules:
//  - a relative path literal in JS/TS (in imports, require, resolve(__dirname, ...), anywhere)
//    must resolve inside the repository;
//  - a shell script or JSON file may not name the sibling folder ../shared at all (paths there are
//    built from variables, so they cannot be resolved like the literals above).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const SCANNED = ["src", "test", "scripts", "bench", "demo", "webview-ui/src", "webview-ui/test", ".ci", "esbuild.js", "vitest.config.mts", "webview-ui/vite.config.ts", "webview-ui/vitest.config.ts"];
// Recorded and public transcripts are data, not code: they may contain anything.
const SKIPPED = new Set(["node_modules", "dist", "fixtures", "test-output"]);
const CODE = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs"]);
const TEXT = new Set([...CODE, ".sh", ".json", ""]);
const RELATIVE_LITERAL = /(["'`])(\.{1,2}\/[^"'`\n$]*)\1/g;
const SIBLING_SHARED = /\.\.\/+shared\b/;

function files(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return TEXT.has(extname(path)) ? [path] : [];
  return readdirSync(path).flatMap((name) => (SKIPPED.has(name) ? [] : files(join(path, name))));
}

const problems = [];
let count = 0;
for (const file of SCANNED.flatMap((p) => files(join(root, p)))) {
  count++;
  const where = relative(root, file);
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    if (!CODE.has(extname(file))) {
      if (SIBLING_SHARED.test(line)) problems.push(`${where}:${i + 1}: names ../shared, which a fresh clone does not have`);
      return;
    }
    for (const match of line.matchAll(RELATIVE_LITERAL)) {
      const target = resolve(dirname(file), match[2]);
      if (target !== root && !target.startsWith(root + sep)) problems.push(`${where}:${i + 1}: "${match[2]}" leads outside the repository`);
    }
  });
}
if (problems.length > 0) {
  console.error(`Everything a test or script reads must be inside the repository (see CLAUDE.md):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`self-contained: ok (${count} files read, none reaches outside the repository)`);

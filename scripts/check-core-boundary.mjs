#!/usr/bin/env node
// Fails when anything under src/core/ imports `vscode` — directly, dynamically, or through a
// relative import that leaves src/core/. ESLint catches the direct case while editing; this
// check also follows the import graph, so a core file cannot reach vscode through a helper.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const core = join(root, "src", "core");
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

const problems = [];
for (const file of walk(core)) {
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (!spec) continue;
    const where = relative(root, file);
    if (spec === "vscode" || spec.startsWith("vscode/")) problems.push(`${where}: imports "${spec}"`);
    if (spec.startsWith(".")) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(core)) problems.push(`${where}: imports "${spec}" from outside src/core`);
    }
  }
}
if (problems.length > 0) {
  console.error(`src/core must stay free of vscode (see CLAUDE.md):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`core boundary: ok (${walk(core).length} files under src/core, none imports vscode)`);

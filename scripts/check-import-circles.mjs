#!/usr/bin/env node
// Fails when imports go round in a circle (CLAUDE.md, "Layout"): between files (type imports too:
// a circle of types is still two files that cannot be understood one without the other), and
// between folders, where one folder imports from another that imports back (a folder and its own
// sub-folder are one unit and may). Circles make a module's order of evaluation an accident and
// its parts impossible to read or test one at a time.
//   node scripts/check-import-circles.mjs [--root <repository>]   (the root: for tests that plant files)
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { checkedRoot, filesUnder } from "./checkedTree.mjs";

const FOLDERS = ["src", "webview-ui/src"];
const CODE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

const root = checkedRoot();

const walk = (dir) => filesUnder(dir, CODE);

/** The file a relative specifier names (TypeScript's rules: an extension, or index.*), if it is one of ours. */
function target(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [base, ...[".ts", ".tsx", ".mts", ".js", ".mjs"].map((e) => base + e), ...["index.ts", "index.tsx"].map((i) => join(base, i))];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const files = FOLDERS.flatMap((folder) => walk(join(root, folder)));
const graph = new Map();
for (const file of files) {
  const to = new Set();
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
    const found = spec?.startsWith(".") ? target(file, spec) : undefined;
    if (found && found !== file) to.add(found);
  }
  graph.set(file, [...to]);
}

/** Strongly connected components of more than one node (Tarjan), each a circle. */
function circles(nodes, edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

const fileCircles = circles([...graph.keys()], (v) => graph.get(v) ?? []);

// Folders: an edge between two folders neither of which holds the other.
const nested = (a, b) => a === b || a.startsWith(b + sep) || b.startsWith(a + sep);
const folderEdges = new Map();
for (const [file, targets] of graph) {
  const from = dirname(file);
  for (const to of targets.map(dirname)) {
    if (nested(from, to)) continue;
    if (!folderEdges.has(from)) folderEdges.set(from, new Set());
    folderEdges.get(from).add(to);
  }
}
const folderCircles = circles([...folderEdges.keys()], (v) => [...(folderEdges.get(v) ?? [])]);

const problems = [
  ...fileCircles.map((c) => `files: ${c.map((f) => relative(root, f)).join(" ⇄ ")}`),
  ...folderCircles.map((c) => `folders: ${c.map((f) => relative(root, f)).join(" ⇄ ")} (${examples(c)})`),
];

/** One import from each folder of a circle into another of it, to start from. */
function examples(circle) {
  const inCircle = new Set(circle);
  const lines = [];
  for (const folder of circle) {
    const hit = [...graph].find(([file, targets]) => dirname(file) === folder && targets.some((t) => inCircle.has(dirname(t)) && !nested(folder, dirname(t))));
    if (hit) lines.push(`${relative(root, hit[0])} → ${relative(root, hit[1].find((t) => inCircle.has(dirname(t)) && !nested(folder, dirname(t))))}`);
  }
  return lines.join("; ");
}

if (problems.length > 0) {
  console.error(`import circles (break each: move what both sides need to a file or folder of its own):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`import circles: none (${files.length} files in ${FOLDERS.join(", ")}, type imports counted; folders apart from their own sub-folders)`);

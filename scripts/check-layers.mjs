#!/usr/bin/env node
// Fails when a layer of src/ reaches past what it may use (CLAUDE.md, "Layout"):
//   src/core    plain Node: itself only, never vscode;
//   src/shared  the protocol: itself only, never vscode;
//   src/agents  the window's agents: core, shared and itself, never vscode (VS Code only
//               through its ports, so it is tested in plain Node).
// Imports are followed as written — static, dynamic, require, re-export, side-effect — so a
// layer cannot reach vscode through a helper in another folder. ESLint flags the direct case
// while editing; this check is what CI relies on.
// And public faces: outside a folder of src/core, that folder is imported only through its index.ts
// (`../core/tools`, never `../core/tools/readFile`), so what a folder offers is one short list and
// the rest is free to change.
//   node scripts/check-layers.mjs [--root <repository>]   (the root: for tests that plant files)
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { checkedRoot, filesUnder } from "./checkedTree.mjs";

const root = checkedRoot();
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

const LAYERS = [
  { folder: "src/core", mayUse: ["src/core"] },
  { folder: "src/shared", mayUse: ["src/shared"] },
  { folder: "src/agents", mayUse: ["src/agents", "src/core", "src/shared"] },
];

const walk = (dir) => filesUnder(dir, /\.(ts|tsx|mts|cts|js|mjs)$/);

const within = (path, folder) => path === folder || path.startsWith(folder + sep);

const problems = [];
let files = 0;
for (const layer of LAYERS) {
  const allowed = layer.mayUse.map((f) => join(root, f));
  for (const file of walk(join(root, layer.folder))) {
    files++;
    const where = relative(root, file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
      if (!spec) continue;
      if (spec === "vscode" || spec.startsWith("vscode/")) problems.push(`${where}: imports "${spec}" (${layer.folder} must not depend on vscode)`);
      if (spec.startsWith(".") && !allowed.some((folder) => within(resolve(dirname(file), spec), folder))) {
        problems.push(`${where}: imports "${spec}", outside what ${layer.folder} may use (${layer.mayUse.join(", ")})`);
      }
    }
  }
}
const core = join(root, "src", "core");
/** The folder of src/core a path is in ("tools"), or undefined outside core. */
const coreFolder = (path) => {
  const rel = relative(core, path);
  return rel.startsWith("..") || rel === "" ? undefined : rel.split(sep)[0];
};
let faced = 0;
for (const file of walk(join(root, "src"))) {
  const mine = coreFolder(file);
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (!spec?.startsWith(".")) continue;
    const target = resolve(dirname(file), spec).replace(/\.(ts|tsx|js|mjs)$/, "");
    const folder = coreFolder(target);
    if (folder === undefined || folder === mine) continue;
    faced++;
    const face = join(core, folder);
    if (target !== face && target !== join(face, "index")) {
      problems.push(`${relative(root, file)}: imports "${spec}": outside src/core/${folder}, import its public face "src/core/${folder}" (index.ts)`);
    }
  }
}
if (problems.length > 0) {
  console.error(`layer boundaries broken (see CLAUDE.md, "Layout"):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `layers: ok (${files} files in ${LAYERS.map((l) => l.folder).join(", ")}; none reaches vscode or past its layer; ` +
    `${faced} imports of a core folder from outside it, each through its index.ts)`,
);

#!/usr/bin/env node
// Fails when a layer of src/ reaches past what it may use (CLAUDE.md, "Layout"):
//   src/core    plain Node: itself only, never vscode;
//   src/shared  the protocol: itself only, never vscode;
//   src/agents  the window's agents: core, shared and itself, never vscode (VS Code only
//               through its ports, so it is tested in plain Node);
//   src/        never webview-ui: the webview is another bundle, for the browser (what both run
//               lives in src/shared, and the webview takes it from there).
// Imports are followed as written — static, dynamic, require, re-export, side-effect, type — so a
// layer cannot reach vscode through a helper in another folder. ESLint flags the direct case
// while editing; this check is what CI relies on.
// Inside src/core, floors (FLOORS below): a folder imports only the folders below it, so nothing
// low (the transcript, the card's labels) can load the server or a tool's handler, and no two
// folders need each other.
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

/**
 * The folders of src/core, ground floor first: each may import only the folders listed before it.
 * A new folder goes on the list, above everything it imports and below everything that imports it.
 */
const FLOORS = [
  "util", //              clocks, emitters, paths: imports no other folder
  "agentSandbox", //      the CLI's own sandbox for an agent's shell: its settings, availability, row marks
  "git", //               running git, worktrees, merge predictions
  "process", //           the claude processes: their table, status files
  "sandbox", //           bubblewrap for a command (git: the repository's layout)
  "mcp", //               the MCP calls' bookkeeping: tracker, approvals, results
  "toolDeclarations", //  what each of our tools is, the server's name, the tool prefix; no handler
  "labels", //            the card's words for a tool call
  "transcript", //        reading transcripts: no server, no tool handler, under everything that reads them
  "usage", //             tokens and prices, from the transcript
  "review", //            review comments and their answers
  "launch", //            what a launch asks for
  "server", //            the loopback server (MCP, hooks)
  "hooks", //             the hooks' settings and brokers (over the server)
  "budget", //            spend caps, the pause rule, the sub-agent brake, burn rate (a gate on the hooks)
  "agent", //             one agent's state from its transcript and hooks
  "engine", //            following and replaying sessions
  "sessions", //          the session index and documents
  "races", //             races between agents
  "queue", //             the task queue: at most K agents at once, its task sources, set-up trust, landing order (over git, launch, races)
  "tools", //             the tools' handlers (over the server, the sandbox, the processes)
  "collisions", //        the collision guard (over the hooks)
];

const walk = (dir) => filesUnder(dir, /\.(ts|tsx|mts|cts|js|mjs)$/);
const specsOf = (file) => [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]).filter(Boolean);

const within = (path, folder) => path === folder || path.startsWith(folder + sep);

const problems = [];
let files = 0;
for (const layer of LAYERS) {
  const allowed = layer.mayUse.map((f) => join(root, f));
  for (const file of walk(join(root, layer.folder))) {
    files++;
    const where = relative(root, file);
    for (const spec of specsOf(file)) {
      if (spec === "vscode" || spec.startsWith("vscode/")) problems.push(`${where}: imports "${spec}" (${layer.folder} must not depend on vscode)`);
      if (spec.startsWith(".") && !allowed.some((folder) => within(resolve(dirname(file), spec), folder))) {
        problems.push(`${where}: imports "${spec}", outside what ${layer.folder} may use (${layer.mayUse.join(", ")})`);
      }
    }
  }
}

const webview = join(root, "webview-ui");
for (const file of walk(join(root, "src"))) {
  for (const spec of specsOf(file)) {
    if ((spec.startsWith(".") && within(resolve(dirname(file), spec), webview)) || spec === "webview-ui" || spec.startsWith("webview-ui/")) {
      problems.push(`${relative(root, file)}: imports "${spec}" from webview-ui (src never imports the webview: move what both need to src/shared)`);
    }
  }
}

const core = join(root, "src", "core");
/** The folder of src/core a path is in, or is ("tools" for .../core/tools/readFile and for .../core/tools), undefined outside core. */
const coreFolder = (path) => {
  const rel = relative(core, path);
  return rel.startsWith("..") || rel === "" ? undefined : rel.split(sep)[0];
};
let floored = 0;
for (const file of walk(core)) {
  const mine = coreFolder(file);
  const where = relative(root, file);
  const floor = dirname(file) === core ? -1 : FLOORS.indexOf(mine);
  if (floor < 0) {
    const which = dirname(file) === core ? "a file directly in src/core, in no folder" : `src/core/${mine} is not a floor`;
    problems.push(`${where}: ${which}: add its folder to FLOORS in scripts/check-layers.mjs, above what it imports`);
    continue;
  }
  for (const spec of specsOf(file)) {
    if (!spec.startsWith(".")) continue;
    const folder = coreFolder(resolve(dirname(file), spec));
    if (folder === undefined || folder === mine) continue;
    floored++;
    const below = FLOORS.indexOf(folder);
    if (below < 0 || below >= floor) {
      problems.push(
        `${where}: imports "${spec}": src/core/${folder} is not below src/core/${mine} in FLOORS (scripts/check-layers.mjs); ` +
          `a folder imports only the floors below it: move what both need down`,
      );
    }
  }
}

let faced = 0;
for (const file of walk(join(root, "src"))) {
  const mine = coreFolder(file);
  for (const spec of specsOf(file)) {
    if (!spec.startsWith(".")) continue;
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
  `layers: ok (${files} files in ${LAYERS.map((l) => l.folder).join(", ")}; none reaches vscode or past its layer; nothing in src imports webview-ui; ` +
    `${floored} imports between core folders, each to a lower floor of ${FLOORS.length}; ${faced} imports of a core folder from outside it, each through its index.ts)`,
);

/**
 * The architecture's boundaries fail `npm test` when crossed, not just by convention: a planted
 * import is refused by ESLint (while editing) and by scripts/check-layers.mjs (the check `npm run
 * lint` runs), and the same files without the crossing pass — so neither check passes vacuously.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { runCheckOnTree } from "../support/plantedTree";
import { useTempDirs } from "../support/tempDir";

const repo = resolve(__dirname, "../..");
const tempDir = useTempDirs();

async function lintErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repo });
  const [result] = await eslint.lintText(code, { filePath: join(repo, filePath) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

/** Runs the layer check on a throwaway tree holding `files`; its exit status and output. */
const checkLayers = (files: Record<string, string>) => runCheckOnTree("check-layers.mjs", tempDir(), files);

describe("ESLint keeps each layer to its imports", () => {
  it("refuses vscode in src/agents, even a type import; allows the agents' own ports", async () => {
    const agentsRule = expect.arrayContaining([expect.stringContaining("src/agents must not depend on vscode")]);
    await expect(lintErrors("src/agents/planted.ts", 'import * as vscode from "vscode";\nexport const x = vscode;\n')).resolves.toEqual(agentsRule);
    await expect(lintErrors("src/agents/planted.ts", 'import type { Terminal } from "vscode";\nexport type T = Terminal;\n')).resolves.toEqual(agentsRule);
    await expect(lintErrors("src/agents/planted.ts", 'import type { TerminalHost } from "./ports";\nexport type T = TerminalHost;\n')).resolves.toEqual([]);
  });

  it("refuses a value import from the extension's src/ in the webview; allows a type import", async () => {
    const value = 'import { parseWebviewMessage } from "../../src/shared/protocol";\nexport const f = parseWebviewMessage;\n';
    await expect(lintErrors("webview-ui/src/planted.ts", value)).resolves.toEqual([expect.stringContaining("only types")]);
    const type = 'import type { AgentFacts } from "../../src/shared/protocol";\nexport type A = AgentFacts;\n';
    await expect(lintErrors("webview-ui/src/planted.ts", type)).resolves.toEqual([]);
  });

  it("allows the webview one value from src/, by name: the elapsed-time format it shares with the extension", async () => {
    const elapsed = 'import { formatElapsed } from "../../src/shared/elapsed";\nexport const f = formatElapsed;\n';
    await expect(lintErrors("webview-ui/src/planted.ts", elapsed)).resolves.toEqual([]);
    const beside = 'import { formatElapsed } from "../../src/shared/elapsedText";\nexport const f = formatElapsed;\n';
    await expect(lintErrors("webview-ui/src/planted.ts", beside)).resolves.toEqual([expect.stringContaining("only types")]);
  });

  it("refuses vscode in src/core", async () => {
    await expect(lintErrors("src/core/planted.ts", 'import { window } from "vscode";\nexport const w = window;\n')).resolves.toEqual([
      expect.stringContaining("src/core must not depend on vscode"),
    ]);
  });
});

describe("scripts/check-layers.mjs follows imports across folders", () => {
  const clean = {
    "src/core/util/index.ts": "export const a = 1;\n",
    "src/shared/protocol.ts": "export type P = { a: number };\n",
    "src/agents/b.ts": 'import { a } from "../core/util";\nimport type { P } from "../shared/protocol";\nexport const b: P = { a };\n',
    "src/vscode/adapter.ts": 'import * as vscode from "vscode";\nexport const v = vscode;\n',
  };

  it("passes a tree where each layer stays inside what it may use (vscode only in src/vscode)", () => {
    expect(checkLayers(clean)).toMatchObject({ ok: true });
  });

  it("fails when src/agents imports vscode directly", () => {
    const r = checkLayers({ ...clean, "src/agents/b.ts": 'import type { Terminal } from "vscode";\nexport type T = Terminal;\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain('src/agents/b.ts: imports "vscode"');
  });

  it("fails when src/agents reaches vscode through an adapter in src/vscode", () => {
    const r = checkLayers({ ...clean, "src/agents/b.ts": 'export { v } from "../vscode/adapter";\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("outside what src/agents may use");
  });

  it("fails when src/core imports from src/agents, or src/shared from src/core (dynamic import and require too)", () => {
    const up = checkLayers({ ...clean, "src/core/util/index.ts": 'export const a = 1;\nexport const later = () => import("../../agents/b");\n' });
    expect(up.ok).toBe(false);
    expect(up.output).toContain("outside what src/core may use");
    const sideways = checkLayers({
      ...clean,
      "src/shared/protocol.ts": 'const a = require("../core/util");\nexport type P = { a: number };\nexport const x = a;\n',
    });
    expect(sideways.ok).toBe(false);
    expect(sideways.output).toContain("outside what src/shared may use");
  });

  it("fails when a file outside a core folder imports past its index.ts; its own folder and its face pass", () => {
    const faced = {
      ...clean,
      "src/core/tools/readFile.ts": "export const readFile = 1;\n",
      "src/core/tools/listFiles.ts": 'import { readFile } from "./readFile";\nexport const listFiles = readFile;\n',
      "src/core/tools/index.ts": 'export { readFile } from "./readFile";\n',
      "src/core/collisions/guard.ts": 'import { readFile } from "../tools";\nexport const guard = readFile;\n',
      "src/vscode/tools.ts": 'import { readFile } from "../core/tools/index";\nexport const t = readFile;\n',
    };
    expect(checkLayers(faced)).toMatchObject({ ok: true });
    const past = checkLayers({
      ...faced,
      "src/core/collisions/guard.ts": 'import type { readFile } from "../tools/readFile";\nexport type R = typeof readFile;\n',
    });
    expect(past.ok).toBe(false);
    expect(past.output).toContain('src/core/collisions/guard.ts: imports "../tools/readFile": outside src/core/tools, import its public face');
    const fromVscode = checkLayers({ ...faced, "src/vscode/tools.ts": 'export { readFile } from "../core/tools/readFile";\n' });
    expect(fromVscode.output).toContain('src/vscode/tools.ts: imports "../core/tools/readFile"');
  });
});

// The transcript is read by everything (the CLI, the restore, the sessions list): were it to import
// the server or the tools' face, all of them would load every tool handler, zod and the MCP SDK.
describe("scripts/check-layers.mjs keeps src/core in its floors: a folder imports only the folders below it", () => {
  const floors = {
    "src/core/util/index.ts": "export const a = 1;\n",
    "src/core/toolDeclarations/index.ts": 'export const ARCADIA_TOOL_PREFIX = "mcp__arcadia__";\n',
    "src/core/labels/index.ts":
      'import { ARCADIA_TOOL_PREFIX } from "../toolDeclarations";\nexport const isOurs = (n: string) => n.startsWith(ARCADIA_TOOL_PREFIX);\n',
    "src/core/transcript/toolsInFlight.ts":
      'import { isOurs } from "../labels";\nimport { a } from "../util";\nexport const f = (n: string) => isOurs(n) && a > 0;\n',
    "src/core/server/index.ts": 'import { ARCADIA_TOOL_PREFIX } from "../toolDeclarations";\nexport const serverName = ARCADIA_TOOL_PREFIX;\n',
    "src/core/tools/index.ts": 'import { serverName } from "../server";\nexport const registerArcadiaTools = () => serverName;\n',
  };

  it("passes a core whose folders each import only lower floors (transcript → labels → toolDeclarations → util)", () => {
    expect(checkLayers(floors)).toMatchObject({ ok: true });
  });

  it("fails when the transcript imports the server", () => {
    const r = checkLayers({ ...floors, "src/core/transcript/prefix.ts": 'import { serverName } from "../server";\nexport const p = serverName;\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain('src/core/transcript/prefix.ts: imports "../server": src/core/server is not below src/core/transcript');
  });

  it("fails when the transcript imports the tools' face, even for a type", () => {
    const r = checkLayers({
      ...floors,
      "src/core/transcript/tools.ts": 'import type { registerArcadiaTools } from "../tools";\nexport type R = typeof registerArcadiaTools;\n',
    });
    expect(r.ok).toBe(false);
    expect(r.output).toContain('src/core/transcript/tools.ts: imports "../tools": src/core/tools is not below src/core/transcript');
  });

  it("fails on any import up the floors (the card's labels reaching the tools), and on two folders importing each other", () => {
    const up = checkLayers({ ...floors, "src/core/labels/index.ts": 'export { registerArcadiaTools } from "../tools";\n' });
    expect(up.ok).toBe(false);
    expect(up.output).toContain('src/core/labels/index.ts: imports "../tools": src/core/tools is not below src/core/labels');
    const util = checkLayers({ ...floors, "src/core/util/late.ts": 'export const later = () => import("../transcript/toolsInFlight");\n' });
    expect(util.ok).toBe(false);
    expect(util.output).toContain("src/core/transcript is not below src/core/util");
  });

  it("fails on a core folder that is not on the floors list, and on a file in no folder", () => {
    const r = checkLayers({ ...floors, "src/core/newThing/index.ts": "export const n = 1;\n", "src/core/loose.ts": "export const l = 1;\n" });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("src/core/newThing/index.ts: src/core/newThing is not a floor: add its folder to FLOORS");
    expect(r.output).toContain("src/core/loose.ts: a file directly in src/core, in no folder");
  });
});

describe("scripts/check-layers.mjs: nothing in src imports webview-ui", () => {
  const tree = {
    "src/core/util/index.ts": "export const a = 1;\n",
    "src/shared/elapsed.ts": "export const formatElapsed = (ms: number) => `${ms}`;\n",
    "src/vscode/callPicker.ts": 'import { formatElapsed } from "../shared/elapsed";\nexport const shown = formatElapsed(1);\n',
    "webview-ui/src/elapsed.ts": "export const formatElapsed = (ms: number) => `${ms}`;\n",
    "webview-ui/src/compareText.ts": 'import { formatElapsed } from "../../src/shared/elapsed";\nexport const x = formatElapsed(1);\n',
  };

  it("passes when src takes what it shares with the webview from src/shared (and the webview from there too)", () => {
    expect(checkLayers(tree)).toMatchObject({ ok: true });
  });

  it("fails when src/vscode imports a file of webview-ui, as a value or as a type", () => {
    const value = checkLayers({
      ...tree,
      "src/vscode/callPicker.ts": 'import { formatElapsed } from "../../webview-ui/src/elapsed";\nexport const shown = formatElapsed(1);\n',
    });
    expect(value.ok).toBe(false);
    expect(value.output).toContain('src/vscode/callPicker.ts: imports "../../webview-ui/src/elapsed" from webview-ui');
    const type = checkLayers({
      ...tree,
      "src/panel/view.ts": 'import type { formatElapsed } from "../../webview-ui/src/elapsed";\nexport type F = typeof formatElapsed;\n',
    });
    expect(type.ok).toBe(false);
    expect(type.output).toContain('src/panel/view.ts: imports "../../webview-ui/src/elapsed" from webview-ui');
  });
});

describe("the compiler keeps src/core to itself (src/core/tsconfig.json, a composite project)", () => {
  /** `tsc -b src/core` on a throwaway tree with the repository's two tsconfig files. */
  function buildCore(files: Record<string, string>): { ok: boolean; output: string } {
    const root = tempDir();
    const tsconfigs = {
      "tsconfig.json": readFileSync(join(repo, "tsconfig.json"), "utf8"),
      // Declarations into the tree's own folder (node_modules below is the repository's, linked).
      "src/core/tsconfig.json": readFileSync(join(repo, "src/core/tsconfig.json"), "utf8").replaceAll("node_modules/.cache/", "out/"),
    };
    symlinkSync(join(repo, "node_modules"), join(root, "node_modules"), "dir");
    for (const [path, content] of Object.entries({ ...tsconfigs, ...files })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
    const result = spawnSync(process.execPath, [tsc, "-b", join(root, "src/core")], { encoding: "utf8", timeout: 120_000 });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  }

  it("builds a core that imports only itself, and refuses one that imports src/agents", () => {
    const core = { "src/core/a.ts": "export const a: number = 1;\n", "src/agents/b.ts": "export const b: number = 2;\n" };
    expect(buildCore(core)).toMatchObject({ ok: true });
    const crossing = buildCore({ ...core, "src/core/a.ts": 'import { b } from "../agents/b";\nexport const a: number = b;\n' });
    expect(crossing.ok).toBe(false);
    expect(crossing.output).toContain("TS6307");
  }, 120_000);
});

/**
 * The bundles load where they run: plain CommonJS in Node, as VS Code's extension host loads
 * them. Unit tests import the TypeScript sources as ES modules and cannot see what bundling
 * changes: a dependency bundled from its ES module build read `import.meta.url`, undefined in a
 * CommonJS bundle, and the server bundle failed to load (agents started without Arcadia's tools).
 * Built here with the project's own esbuild options, into a folder of the test's own.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../support/tempDir";

const ROOT = resolve(__dirname, "../..");
const tempDir = useTempDirs();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { builds } = require(join(ROOT, "esbuild.js")) as { builds: { entryPoints: string[]; outfile: string }[] };

async function bundle(entry: string): Promise<string> {
  const options = builds.find((b) => b.entryPoints.includes(entry));
  if (!options) throw new Error(`no build for ${entry} in esbuild.js`);
  const outfile = join(tempDir(), options.outfile.split("/").pop() as string);
  await build({ ...options, outfile, absWorkingDir: ROOT, logLevel: "silent", sourcemap: false });
  return outfile;
}

/** The source files a bundle holds code of. */
async function bundledFiles(entry: string): Promise<string[]> {
  const options = builds.find((b) => b.entryPoints.includes(entry))!;
  const result = await build({
    ...options,
    outfile: join(tempDir(), "inputs.js"),
    absWorkingDir: ROOT,
    logLevel: "silent",
    sourcemap: false,
    write: false,
    metafile: true,
  });
  return Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, use]) => use.bytesInOutput > 0)
      .map(([file]) => file),
  );
}

/** Each declared tool's handler: src/core/tools/<tool>.ts, for src/core/toolDeclarations/<tool>.ts. */
const TOOL_HANDLERS = readdirSync(join(ROOT, "src/core/toolDeclarations"))
  .filter((file) => file !== "index.ts")
  .map((file) => `src/core/tools/${file}`)
  .filter((file) => existsSync(join(ROOT, file)));

function loadInNode(file: string, script: string) {
  const result = spawnSync(process.execPath, ["-e", `const m = require(${JSON.stringify(file)}); ${script}`], { encoding: "utf8", timeout: 30_000 });
  return { code: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe("the bundles load as the extension host loads them", () => {
  it("dist/server.js (the loopback server and the tools) loads and offers what mcpHost.ts takes from it", async () => {
    const file = await bundle("src/vscode/server/serverModule.ts");
    const loaded = loadInNode(file, `console.log(Object.keys(m).sort().join(","));`);
    expect(loaded.stderr).toBe("");
    expect(loaded.code).toBe(0);
    expect(loaded.stdout).toBe("registerArcadiaTools,startLoopbackServer");
  });

  it("dist/cli.js loads and answers", async () => {
    const file = await bundle("src/cli.ts");
    const result = spawnSync(process.execPath, [file, "replay"], { encoding: "utf8", timeout: 30_000 });
    // No file given: a usage line, not a crash at load.
    expect(result.stderr).toMatch(/usage|replay/i);
    expect(result.stderr).not.toMatch(/TypeError|ReferenceError|ERR_INVALID_ARG_TYPE/);
  });
});

// The card's words come from the tools' declarations; the tools themselves load only with the
// server (dist/server.js): the CLI and the extension's activation do not pay for them.
describe("what the bundles carry of Arcadia's tools", () => {
  it.each(["src/cli.ts", "src/extension.ts"])("%s carries Arcadia's tool declarations, not their handlers", async (entry) => {
    const files = await bundledFiles(entry);
    expect(TOOL_HANDLERS.length).toBeGreaterThanOrEqual(8);
    expect(files.filter((f) => f.startsWith("src/core/toolDeclarations/")).length).toBeGreaterThan(0);
    expect(files.filter((f) => TOOL_HANDLERS.includes(f))).toEqual([]);
  });

  it("dist/cli.js carries neither zod nor the MCP SDK (a declaration's schema is built from the server's zod)", async () => {
    const files = await bundledFiles("src/cli.ts");
    expect(files.filter((f) => /node_modules\/(zod|@modelcontextprotocol)\//.test(f))).toEqual([]);
  });
});

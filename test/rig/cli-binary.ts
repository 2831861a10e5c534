// Locates (and on first use installs) the pinned Claude Code CLI the rig drives. Pinning matters:
// the transcript format is internal and changes between versions, so fixtures name the version.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { namespaceSupport } from "./namespace.js";

/** The pinned version; `ARCADIA_CLAUDE_VERSION=<v>` tries another one (e.g. to re-record fixtures). */
export const CLAUDE_CODE_VERSION = process.env.ARCADIA_CLAUDE_VERSION || "2.1.332";

/** `${XDG_CACHE_HOME:-~/.cache}/arcadia/claude-code-<version>`. */
export function claudeInstallDir(version = CLAUDE_CODE_VERSION): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "arcadia", `claude-code-${version}`);
}

let verified: string | undefined;

/** Path of the pinned `claude` executable, installed with npm on first use. npm 11 skips install
 * scripts by default; that is fine: the binary ships in the optional platform package. */
export function claudeBinary(version = CLAUDE_CODE_VERSION): string {
  if (verified) return verified;
  const dir = claudeInstallDir(version);
  const bin = join(dir, "node_modules", ".bin", "claude");
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, "package.json"))) {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "claude-cache", private: true }) + "\n");
    }
    // The package asks for Node >= 22 (EBADENGINE warning on 20) but runs a native binary.
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", `@anthropic-ai/claude-code@${version}`], {
      cwd: dir,
      stdio: ["ignore", "inherit", "inherit"],
    });
  }
  // Even `--version` runs only inside a loopback-only namespace, with a HOME that is not ours.
  if (namespaceSupport().ok) {
    const home = mkdtempSync(join(tmpdir(), "arcadia-version-"));
    let out: string;
    try {
      out = execFileSync("unshare", ["-n", "--", bin, "--version"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: home, DISABLE_AUTOUPDATER: "1", DISABLE_TELEMETRY: "1" },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    if (!out.startsWith(version)) throw new Error(`${bin} --version printed ${JSON.stringify(out)}, expected ${version}`);
    // Once per process: a test log then names the CLI that really ran, as the binary itself says.
    console.log(`real Claude Code CLI: ${out.trim()} (${bin})`);
  }
  verified = bin;
  return bin;
}

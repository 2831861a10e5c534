/**
 * Whether tests that drive the real Claude Code CLI can run here: they need a loopback-only
 * network namespace (`unshare -n`). Elsewhere they skip with the reason printed; on CI (CI=true)
 * they must run, so a missing namespace fails the run instead of skipping silently.
 */
import which from "which";
import { namespaceSupport } from "../rig/namespace.js";

export function realCliAvailable(suite: string): boolean {
  const support = namespaceSupport();
  if (support.ok) return true;
  if (process.env.CI === "true") throw new Error(`${suite}: the real-CLI tests must run on CI, but ${support.reason}`);
  console.warn(`${suite} skipped: ${support.reason}`);
  return false;
}

/**
 * As `realCliAvailable`, for tests of the CLI's own sandbox: it also needs bubblewrap and socat
 * (.ci/run installs both). Elsewhere the suite skips with the reason; on CI a missing one fails.
 */
export function realCliSandboxAvailable(suite: string): boolean {
  const missing = ["bwrap", "socat"].filter((p) => !which.sync(p, { nothrow: true }));
  if (missing.length > 0 && process.env.CI === "true") throw new Error(`${suite}: must run on CI, but ${missing.join(" and ")} missing`);
  if (missing.length > 0) console.warn(`${suite} skipped: ${missing.join(" and ")} not installed (apt install bubblewrap socat)`);
  return missing.length === 0 && realCliAvailable(suite);
}

/**
 * Whether tests that drive the real Claude Code CLI can run here: they need a loopback-only
 * network namespace (`unshare -n`). Elsewhere they skip with the reason printed; on CI (CI=true)
 * they must run, so a missing namespace fails the run instead of skipping silently.
 */
import { namespaceSupport } from "../rig/namespace.js";

export function realCliAvailable(suite: string): boolean {
  const support = namespaceSupport();
  if (support.ok) return true;
  if (process.env.CI === "true") throw new Error(`${suite}: the real-CLI tests must run on CI, but ${support.reason}`);
  console.warn(`${suite} skipped: ${support.reason}`);
  return false;
}

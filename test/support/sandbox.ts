/**
 * Whether tests that run commands in the real sandbox can run here: bubblewrap installed and
 * allowed to make its namespaces. Elsewhere they skip with the reason printed; on CI (CI=true,
 * where .ci/run installs bubblewrap) they must run, so a missing sandbox fails instead.
 */
import { homedir } from "node:os";
import { probeBubblewrap } from "../../src/core/sandbox/bubblewrap";

export async function sandboxAvailable(suite: string): Promise<boolean> {
  const found = await probeBubblewrap(process.env, homedir());
  if (found.available) return true;
  if (process.env.CI === "true") throw new Error(`${suite}: the sandbox tests must run on CI, but ${found.reason}`);
  console.warn(`${suite} skipped: ${found.reason}. ${found.fix}`);
  return false;
}

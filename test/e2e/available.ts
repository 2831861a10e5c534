// Whether end-to-end tests can run here. Elsewhere they skip with the reason printed; on CI
// (CI=true) they must run, so a missing namespace or tool fails the run instead of skipping.
import { isolation } from "./netns";
import { missingTools } from "./paths";

export function e2eAvailable(suite: string): boolean {
  const iso = isolation();
  const reasons = [...(iso.ok ? [] : [iso.reason]), ...missingTools().map((m) => `missing ${m}`)];
  if (reasons.length === 0) return true;
  if (process.env.CI === "true") throw new Error(`${suite}: the end-to-end tests must run on CI, but:\n  ${reasons.join("\n  ")}`);
  console.warn(`${suite} skipped:\n  ${reasons.join("\n  ")}`);
  return false;
}

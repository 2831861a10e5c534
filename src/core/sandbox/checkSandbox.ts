/**
 * Where a Run check (a race's or the queue's, arcadia.compare.check) runs: it runs the agents'
 * code (their tests), so in the sandbox, with only the member's worktree writable (the main
 * checkout and other worktrees read-only) and no network unless the user's setting allows it.
 * Where there is no sandbox it runs as before, and says why. `said` is the terminal's line.
 */
import type { CommandSandbox, SandboxLaunch } from "./commandSandbox";

export interface CheckPlace {
  /** The member's worktree (a real path). */
  worktree: string;
  /** The workspace folders (real paths). */
  folders: readonly string[];
  /** arcadia.compare.checkNetwork. */
  network: boolean;
}

export async function checkSandbox(sandbox: CommandSandbox, place: CheckPlace): Promise<{ launch?: SandboxLaunch; said: string }> {
  if (sandbox.settings().mode === "off") return { said: 'not in the sandbox: arcadia.sandbox is "off"' };
  const found = await sandbox.availability();
  if (!found.available) return { said: `not in the sandbox: ${found.reason}` };
  const folders = place.folders.length > 0 ? place.folders : [place.worktree];
  const launch = await sandbox.launch({ cwd: place.worktree, folders, agentCwd: place.worktree, network: place.network });
  const net = place.network ? "network on (arcadia.compare.checkNetwork)" : "no network";
  return { launch, said: `in the sandbox: only this worktree writable, ${net}, home hidden` };
}

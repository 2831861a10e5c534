/**
 * Which agent a new transcript file belongs to, when `/clear` started it. The rules, learned the
 * hard way by similar tools: claim only a file whose first records hold the `/clear` command (a
 * file from `--resume` or from another window lacks it), only for the agent whose terminal is
 * focused (or was last focused), and only once that agent's old file has gone quiet.
 */
export interface ClaimCandidate {
  id: string;
  projectDir: string;
  transcript: string;
  lastDataAt: number;
}

export const CLEAR_QUIET_MS = 750;

export function chooseClaimant<T extends ClaimCandidate>(
  projectDir: string,
  file: string,
  agents: readonly T[],
  focused: T | undefined,
  lastFocused: T | undefined,
): T | undefined {
  if (agents.some((a) => a.transcript === file)) return undefined;
  for (const candidate of [focused, lastFocused]) {
    if (candidate && candidate.projectDir === projectDir) return candidate;
  }
  return undefined;
}

/** How much longer to wait before the claimant's old file counts as quiet (0: now). */
export function quietWait(candidate: ClaimCandidate, now: number, quietMs = CLEAR_QUIET_MS): number {
  return Math.max(0, candidate.lastDataAt + quietMs - now);
}

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
  /** A turn is running: whoever typed /clear, it was not this agent. */
  busy: boolean;
}

export const CLEAR_QUIET_MS = 750;

/**
 * `anyTerminalFocused`: some terminal is in front. If it is not an agent's (the user runs `claude`
 * by hand there), the /clear came from it, not from the agent last focused.
 */
export function chooseClaimant<T extends ClaimCandidate>(
  projectDir: string,
  file: string,
  agents: readonly T[],
  focused: T | undefined,
  lastFocused: T | undefined,
  anyTerminalFocused: boolean,
): T | undefined {
  if (agents.some((a) => a.transcript === file)) return undefined;
  const candidate = focused ?? (anyTerminalFocused ? undefined : lastFocused);
  if (!candidate || candidate.projectDir !== projectDir || candidate.busy) return undefined;
  return candidate;
}

/** How much longer to wait before the claimant's old file counts as quiet (0: now). */
export function quietWait(candidate: ClaimCandidate, now: number, quietMs = CLEAR_QUIET_MS): number {
  return Math.max(0, candidate.lastDataAt + quietMs - now);
}

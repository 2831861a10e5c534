/**
 * Whether Claude Code's own sandbox can run for the agents Arcadia launches, and if not, why and
 * what to do, once, in words for the panel (the pattern of core/sandbox/bubblewrap.ts). The CLI's
 * sandbox needs bubblewrap and socat on Linux (its own check names both), nothing on macOS (the
 * CLI's built-in Seatbelt profile), and is not offered on Windows here. Pure: the caller finds the
 * programs. With `failIfUnavailable` the CLI itself refuses to start without it, so this is what
 * keeps an "on" agent from failing to launch: an unavailable sandbox launches it without one (its
 * commands ask, as before) and says so.
 */
export type AgentSandboxAvailability = { available: true } | { available: false; reason: string; fix: string };

export interface FoundPrograms {
  bwrap?: string;
  socat?: string;
}

export function agentSandboxAvailability(platform: NodeJS.Platform, found: FoundPrograms): AgentSandboxAvailability {
  if (platform === "darwin") return { available: true };
  if (platform === "win32") {
    return {
      available: false,
      reason: "Claude Code's sandbox for the agents' shell commands is not used on Windows here",
      fix: "Agents start without it: their shell commands ask you first, as before.",
    };
  }
  if (platform !== "linux")
    return { available: false, reason: `Claude Code's sandbox does not run on ${platform}`, fix: "Agents' shell commands ask you first." };
  const missing = [found.bwrap ? undefined : "bubblewrap", found.socat ? undefined : "socat"].filter((m): m is string => m !== undefined);
  if (missing.length === 0) return { available: true };
  const names = missing.join(" and ");
  return {
    available: false,
    reason: `Claude Code's sandbox for the agents' shell commands needs ${names}, not installed here`,
    fix:
      `Install ${names} — \`sudo apt install ${missing.join(" ")}\` (Debian, Ubuntu), \`sudo dnf install ${missing.join(" ")}\` (Fedora), ` +
      `\`sudo pacman -S ${missing.join(" ")}\` (Arch) — and agents opened after that run sandboxed. Until then their shell commands ask you first.`,
  };
}

/**
 * How a tool row of an agent stands towards Claude Code's sandbox, for the card: a Bash call of a
 * sandboxed agent that ran without the user being asked ran in the sandbox (`autoAllowBashIfSandboxed`:
 * that is what let it through); one that asked to leave it (`dangerouslyDisableSandbox: true`, which
 * the CLI turns into a permission prompt, CLI 2.1.332) is marked so whatever its answer. A call that
 * waited for the user (a deny or ask rule of theirs) is not "unasked". Other tools are not the
 * sandbox's business (the CLI's file tools have their own permission rules).
 */
export type SandboxMark = "unasked" | "askedToLeave";

export interface SandboxRow {
  name: string;
  outcome: string;
  leavesSandbox?: boolean;
  waitedMs?: number;
}

export function sandboxMark(agentSandboxed: boolean, row: SandboxRow): SandboxMark | undefined {
  if (!agentSandboxed || row.name !== "Bash") return undefined;
  if (row.leavesSandbox) return "askedToLeave";
  if (row.waitedMs !== undefined || row.outcome === "waiting" || row.outcome === "denied") return undefined;
  return "unasked";
}

/**
 * The reason a permission prompt shows for a Bash call that asks to leave the sandbox: the CLI's
 * hook input has no reason of its own (CLI 2.1.332: `tool_input.dangerouslyDisableSandbox: true`),
 * so the call's `description`, the model's words for what the command does, is the reason given.
 */
export function leaveSandboxReason(toolName: string, toolInput: unknown): string | undefined {
  if (toolName !== "Bash" || typeof toolInput !== "object" || toolInput === null) return undefined;
  const input = toolInput as { dangerouslyDisableSandbox?: unknown; description?: unknown };
  if (input.dangerouslyDisableSandbox !== true) return undefined;
  const why = typeof input.description === "string" && input.description.trim() !== "" ? input.description.trim() : "no reason given";
  return `asks to run outside Claude Code's sandbox (no confinement: your files, network and keys): ${why}`;
}

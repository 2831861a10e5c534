/**
 * How a tool call of a sandboxed agent stands towards Claude Code's sandbox, for its row on the
 * card: a Bash call runs in the sandbox unless it asks to leave it (`dangerouslyDisableSandbox:
 * true` in its input, CLI 2.1.332), which the CLI turns into a permission prompt. Other tools are
 * not the sandbox's business (the CLI's file tools have their own permission rules).
 */
export type SandboxMark = "inSandbox" | "outsideAsked";

export function sandboxedBashUse(agentSandboxed: boolean, toolName: string, input: unknown): SandboxMark | undefined {
  if (!agentSandboxed || toolName !== "Bash") return undefined;
  const asksOut = typeof input === "object" && input !== null && (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox === true;
  return asksOut ? "outsideAsked" : "inSandbox";
}

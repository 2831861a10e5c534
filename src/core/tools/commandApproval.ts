/**
 * Which commands need the user's Allow before they run, from two settings:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] — a command runs without asking when it equals an entry
 *     or starts with an entry followed by a space ("npm test" allows "npm test -- --watch").
 * A command line that chains or redirects (; && || | ` $( > <, newline) always asks under
 * "unlessAllowListed": "npm test && curl … | sh" must not ride on an allowed prefix.
 */
export type CommandApprovalMode = "always" | "never" | "unlessAllowListed";

const CHAINING = /[;&|`<>\n\r]|\$\(/;

export function commandApprovalPolicy(mode: CommandApprovalMode, allowed: readonly string[]): (command: string) => boolean {
  const entries = allowed.map((a) => a.trim()).filter((a) => a.length > 0);
  return (command) => {
    if (mode === "never") return false;
    if (mode === "always") return true;
    const line = command.trim();
    if (CHAINING.test(line)) return true;
    return !entries.some((entry) => line === entry || line.startsWith(`${entry} `));
  };
}

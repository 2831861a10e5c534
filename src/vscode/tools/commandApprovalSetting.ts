/**
 * The command approval policy from the settings, read on every call so a change applies at once:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] (defaults in package.json)
 */
import { vscode } from "../api";
import { commandApprovalPolicy, type CommandApprovalMode } from "../../core/tools/commandApproval";

const MODES: readonly CommandApprovalMode[] = ["always", "never", "unlessAllowListed"];

export function commandNeedsApprovalFromSettings(command: string): boolean {
  const config = vscode.workspace.getConfiguration("arcadia.mcp");
  const mode = config.get<string>("commandApproval", "unlessAllowListed");
  const allowed = config.get<unknown>("allowedCommands", []);
  const list = Array.isArray(allowed) ? allowed.filter((a): a is string => typeof a === "string") : [];
  // An unknown value asks: the safe reading of a typo.
  return commandApprovalPolicy(MODES.includes(mode as CommandApprovalMode) ? (mode as CommandApprovalMode) : "always", list)(command);
}

/**
 * The command approval settings, read on every call so a change applies at once:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] (defaults in package.json)
 * The decision (text and disk rules) is core's: core/tools/commandApproval.ts.
 */
import { vscode } from "../api";
import type { CommandApprovalMode, CommandApprovalSettings } from "../../core/tools";

const MODES: readonly CommandApprovalMode[] = ["always", "never", "unlessAllowListed"];

export function commandApprovalFromSettings(): CommandApprovalSettings {
  const config = vscode.workspace.getConfiguration("arcadia.mcp");
  const mode = config.get<string>("commandApproval", "unlessAllowListed");
  const allowed = config.get<unknown>("allowedCommands", []);
  const list = Array.isArray(allowed) ? allowed.filter((a): a is string => typeof a === "string") : [];
  // An unknown value asks: the safe reading of a typo.
  return { mode: MODES.includes(mode as CommandApprovalMode) ? (mode as CommandApprovalMode) : "always", allowed: list };
}

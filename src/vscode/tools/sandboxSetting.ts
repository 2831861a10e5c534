/**
 * The sandbox settings, read on every command so a change applies at once:
 *   arcadia.sandbox: "unaskedCommands" (default) | "allCommands" | "off"
 *   arcadia.sandboxReadablePaths: string[] — more folders a sandboxed command may read.
 * Both are application-scoped (package.json): a workspace cannot loosen them.
 */
import { vscode } from "../api";
import type { SandboxMode, SandboxSettings } from "../../core/sandbox";

const MODES: readonly SandboxMode[] = ["unaskedCommands", "allCommands", "off"];

export function sandboxFromSettings(): SandboxSettings {
  const config = vscode.workspace.getConfiguration("arcadia");
  const mode = config.get<string>("sandbox", "unaskedCommands");
  const paths = config.get<unknown>("sandboxReadablePaths", []);
  return {
    // An unknown value keeps the default: a typo must not switch the sandbox off.
    mode: MODES.includes(mode as SandboxMode) ? (mode as SandboxMode) : "unaskedCommands",
    readablePaths: Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string") : [],
  };
}

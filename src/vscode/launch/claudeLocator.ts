/**
 * Finding the `claude` executable: the `arcadia.claudePath` setting, else PATH. When it cannot be
 * found, say so with what to do, instead of opening a terminal that fails.
 */
import { existsSync } from "node:fs";
import which from "which";

export type ClaudeLookup = { ok: true; command: string } | { ok: false; message: string };

export async function locateClaude(configuredPath: string, envPath: string | undefined): Promise<ClaudeLookup> {
  const configured = configuredPath.trim();
  if (configured) {
    if (configured.includes("/") || configured.includes("\\")) {
      return existsSync(configured)
        ? { ok: true, command: configured }
        : {
            ok: false,
            message:
              `The Claude Code CLI was not found at ${configured} (setting arcadia.claudePath). Fix the path, or clear it to use the claude on ` + `your PATH.`,
          };
    }
    const found = await which(configured, { nothrow: true, path: envPath });
    if (found) return { ok: true, command: configured };
    return { ok: false, message: `"${configured}" (setting arcadia.claudePath) is not on your PATH.` };
  }
  const found = await which("claude", { nothrow: true, path: envPath });
  if (found) return { ok: true, command: "claude" };
  return {
    ok: false,
    message:
      "The Claude Code CLI (claude) was not found on your PATH. Install it with `npm install -g @anthropic-ai/claude-code`, or set arcadia.claudePath " +
      "to its location.",
  };
}

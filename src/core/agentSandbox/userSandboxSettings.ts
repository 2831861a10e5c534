/**
 * What the user's own Claude Code settings say about the sandbox, where Arcadia's `--settings`
 * would otherwise override it: `--settings` outranks the user's, project and local settings for a
 * single value, so Arcadia reads them and never writes a looser value than theirs. (Lists such as
 * `filesystem.denyRead` or `network.deniedDomains` are merged across sources by the CLI: the
 * user's stay in force whatever Arcadia writes.) Read only, never written.
 *
 * A file that cannot be read as JSON loses nothing: its problem is reported, and Arcadia then
 * assumes the strictest (commands still ask), since the file may have meant to say so.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface UserSandboxSettings {
  /** false when a settings file says so (sandboxed commands keep asking). */
  autoAllowBashIfSandboxed?: boolean;
  /** false when a settings file says so (`dangerouslyDisableSandbox` is ignored). */
  allowUnsandboxedCommands?: boolean;
  /** One sentence per settings file that could not be read, with what to do. */
  problems: string[];
}

/** The files the CLI reads for a folder: the user's, then the project's and the local one. */
export function claudeSettingsFiles(home: string, folder: string, configDir = process.env.CLAUDE_CONFIG_DIR): string[] {
  return [join(configDir || join(home, ".claude"), "settings.json"), join(folder, ".claude", "settings.json"), join(folder, ".claude", "settings.local.json")];
}

/** From each file's text (`undefined`: no such file), in any order: a false anywhere wins. */
export function userSandboxFromTexts(files: readonly { path: string; text: string | undefined; readError?: string }[]): UserSandboxSettings {
  const result: UserSandboxSettings = { problems: [] };
  for (const { path, text, readError } of files) {
    if (readError !== undefined) {
      result.problems.push(`${path} could not be read (${readError}); until it can, sandboxed commands still ask.`);
      continue;
    }
    if (text === undefined || text.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      result.problems.push(`${path} is not valid JSON (${(err as Error).message}); fix it, and until then sandboxed commands still ask.`);
      continue;
    }
    const sandbox = isObject(parsed) ? parsed.sandbox : undefined;
    if (sandbox === undefined) continue;
    if (!isObject(sandbox)) {
      result.problems.push(`${path}: "sandbox" is not an object; fix it, and until then sandboxed commands still ask.`);
      continue;
    }
    for (const key of ["autoAllowBashIfSandboxed", "allowUnsandboxedCommands"] as const) {
      if (sandbox[key] === false) result[key] = false;
      else if (sandbox[key] === true && result[key] === undefined) result[key] = true;
    }
  }
  return result;
}

/** Reads the files (a missing one is no problem; any other read error is reported like bad JSON). */
export async function readUserSandboxSettings(home: string, folder: string): Promise<UserSandboxSettings> {
  const files = await Promise.all(
    claudeSettingsFiles(home, folder).map(async (path) => {
      try {
        return { path, text: await readFile(path, "utf8") };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return { path, text: undefined };
        return { path, text: undefined, readError: (err as Error).message };
      }
    }),
  );
  return userSandboxFromTexts(files);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

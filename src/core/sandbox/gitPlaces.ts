/**
 * Where a repository keeps what git runs (its config, its hooks), read from the disk without
 * running git: `.git` as a folder or as a `gitdir: <path>` file (a worktree, a bare layout such as
 * `.bare` behind a `.git` file), its `commondir`, the files its config includes (`[include]`,
 * `[includeIf]`: git follows them like the config itself) and the folder `core.hooksPath` names.
 * Small files at known places, read synchronously (before every sandboxed command: a round trip
 * through libuv's threads for each cost more than the reading).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { lstatNow } from "./pathKind";

/** The git folder a `.git` file or folder at `dotGit` leads to (absolute, links not resolved), or undefined. */
export async function gitDirOf(dotGit: string): Promise<string | undefined> {
  const s = lstatNow(dotGit);
  if (s?.isDirectory()) return dotGit;
  if (!s?.isFile()) return undefined;
  const text = readText(dotGit) ?? "";
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match ? resolve(dirname(dotGit), match[1] as string) : undefined;
}

/** The repository's shared folder when `gitDir` is a linked worktree's (its `commondir` file). */
export async function commonDirOf(gitDir: string): Promise<string | undefined> {
  const text = readText(resolve(gitDir, "commondir"));
  const line = text?.trim();
  return line ? resolve(gitDir, line) : undefined;
}

/**
 * core.hooksPath from the config files given (the last one that sets it wins, as in git),
 * resolved against the working tree `top` when relative; undefined when unset or in the home
 * folder (`~`: outside every bound folder, nothing to keep read-only there).
 */
export async function hooksPathOf(configs: readonly string[], top: string): Promise<string | undefined> {
  let value: string | undefined;
  for (const config of configs) {
    const text = readText(config) ?? "";
    value = lastCoreValue(text, "hookspath") ?? value;
  }
  if (value === undefined || value === "" || value.startsWith("~")) return undefined;
  return isAbsolute(value) ? value : resolve(top, value);
}

/** The last `key = value` of `[core]` in a git config's text (keys are case-insensitive; quotes removed). */
export function lastCoreValue(text: string, key: string): string | undefined {
  let inCore = false;
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) {
      inCore = (section[1] as string).toLowerCase() === "core";
      continue;
    }
    if (!inCore) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || (entry[1] as string).toLowerCase() !== key) continue;
    found = (entry[2] ?? "")
      .replace(/\s+[#;].*$/, "")
      .replace(/^"(.*)"$/, "$1")
      .trim();
  }
  return found;
}

/** How deep includes are followed (an included file may include another). */
const INCLUDE_DEPTH = 4;

/**
 * Every file the configs include, `include.path` and `includeIf.<condition>.path` alike (whatever
 * the condition: it may hold later), relative ones resolved against the including file's folder;
 * `~` ones left out (the home folder is not in the sandbox). Followed INCLUDE_DEPTH deep.
 */
export async function includedConfigs(configs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  let current = [...configs];
  for (let depth = 0; depth < INCLUDE_DEPTH && current.length > 0; depth++) {
    const next: string[] = [];
    for (const config of current) {
      const text = readText(config) ?? "";
      for (const value of includePaths(text)) {
        if (value.startsWith("~")) continue;
        const path = isAbsolute(value) ? value : resolve(dirname(config), value);
        if (!found.includes(path)) next.push(path);
      }
    }
    found.push(...next);
    current = next;
  }
  return found;
}

/** The `path` values of `[include]` and `[includeIf "…"]` sections. */
export function includePaths(text: string): string[] {
  const out: string[] = [];
  let inInclude = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) {
      const name = (section[1] as string).toLowerCase();
      inInclude = name === "include" || name === "includeif";
      continue;
    }
    const entry = inInclude ? /^path\s*=\s*(.*)$/i.exec(line) : null;
    if (entry)
      out.push(
        (entry[1] as string)
          .replace(/\s+[#;].*$/, "")
          .replace(/^"(.*)"$/, "$1")
          .trim(),
      );
  }
  return out;
}

/** A small file's text, or undefined when it cannot be read (missing, a folder, no permission). */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

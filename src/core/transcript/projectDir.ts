/**
 * Where the Claude Code CLI keeps a workspace's transcripts, by the CLI's own rule:
 *   <config>/projects/<slug>/<session-id>.jsonl
 * where <config> is $CLAUDE_CONFIG_DIR or ~/.claude, and
 *   slug = realpath(cwd) with every non-alphanumeric UTF-16 unit replaced by "-",
 * truncated to 200 characters plus "-" and a base-36 hash when longer.
 * Getting this wrong is the classic cause of agents stuck "idle" (see prior-art.md).
 */
import { realpathSync } from "node:fs";
import { homedir as osHomedir } from "node:os";
import { join } from "node:path";

const MAX_SLUG = 200;

/** Java-style 32-bit string hash, as the CLI computes it. */
function javaHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return h;
}

/** The folder name the CLI derives from an (already resolved) working directory. */
export function projectSlug(resolvedCwd: string): string {
  // No `u` flag on purpose: the CLI replaces UTF-16 code units, so an emoji becomes "--".
  const slug = resolvedCwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (slug.length <= MAX_SLUG) return slug;
  return `${slug.slice(0, MAX_SLUG)}-${Math.abs(javaHash(resolvedCwd)).toString(36)}`;
}

export interface ConfigLocation {
  env?: Record<string, string | undefined>;
  homedir?: string;
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(loc: ConfigLocation = {}): string {
  const env = loc.env ?? process.env;
  const configured = env.CLAUDE_CONFIG_DIR;
  if (configured && configured.trim()) return configured;
  return join(loc.homedir ?? osHomedir(), ".claude");
}

export function projectsRoot(loc: ConfigLocation = {}): string {
  return join(claudeConfigDir(loc), "projects");
}

function resolveReal(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    // A folder that does not exist (yet) still has a slug; the CLI would create the same one.
    return path;
  }
}

export interface ProjectDirOptions extends ConfigLocation {
  /** Resolves symlinks; injectable for tests. */
  realpath?: (path: string) => string;
}

/**
 * The transcript folder for a workspace folder. With no folder open, the CLI runs in the home
 * directory, so that is the project.
 */
export function projectDirFor(workspacePath: string | undefined, opts: ProjectDirOptions = {}): string {
  const cwd = workspacePath ?? opts.homedir ?? osHomedir();
  const resolved = (opts.realpath ?? resolveReal)(cwd);
  return join(projectsRoot(opts), projectSlug(resolved));
}

export function transcriptPath(projectDir: string, sessionId: string): string {
  return join(projectDir, `${sessionId}.jsonl`);
}

/** Path equality the way the platform's file system sees it (case-insensitive on Windows). */
export function samePath(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === "win32" ? a.toLowerCase() === b.toLowerCase() : a === b;
}

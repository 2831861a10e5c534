/**
 * Pathname expansion of an allow-listed command's words, done by Arcadia, so that the names the
 * policy checks are the names the program gets (it runs with no shell in between). Exactly the
 * shell's rules for the two wildcards Arcadia expands: `*` (any run of characters) and `?` (one),
 * within one name; a name starting with `.` only when the pattern's name starts with `.`;
 * folders followed through links on the way; no match → the word as written (bash's default);
 * matches in code point order (the shell's under LC_ALL=C.UTF-8). Bracket expressions (`[a-z]`, POSIX classes
 * such as `[[=e=]]` or `[[.n.]]`, which match names a simpler reading says they cannot) are not
 * expanded: the caller asks instead. Hand-written on purpose: a glob library brings brackets,
 * braces and extended globs, each one more way for the check and the program to disagree.
 * test/unit/tools/globExpansion.test.ts compares it with bash on planted trees.
 */

export interface GlobDisk {
  /** The names in a folder (links followed to it), or undefined when it cannot be listed. */
  names(folder: string): Promise<string[] | undefined>;
  /** Something is at `path` (a link counts, dangling or not). */
  exists(path: string): Promise<boolean>;
  /** `path` is a folder, through links. */
  isFolder(path: string): Promise<boolean>;
}

export type Expansion = { matches: string[] } | { tooMany: true } | { unsupported: string };

/** An unescaped `*` or `?` in a pattern (shellWords.ts escapes the quoted ones). */
export function hasWildcard(pattern: string): boolean {
  return /(^|[^\\])(\\\\)*[*?]/.test(pattern);
}

/**
 * The names `pattern` matches from `cwd`, each written as the pattern writes it (`src/*.ts` →
 * `src/a.ts`); `{ matches: [] }` when none. `limit`: more than this many is `tooMany`.
 */
export async function expandPattern(pattern: string, cwd: string, disk: GlobDisk, limit: number): Promise<Expansion> {
  if (/(^|[^\\])(\\\\)*\[/.test(pattern)) return { unsupported: "a bracket expression ([…])" };
  const parts = pattern.split("/");
  const absolute = pattern.startsWith("/");
  let found: { shown: string; path: string }[] = [{ shown: absolute ? "/" : "", path: absolute ? "/" : cwd }];
  for (let i = absolute ? 1 : 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const last = i === parts.length - 1;
    const next: typeof found = [];
    for (const at of found) {
      const prefix = at.shown === "" || at.shown.endsWith("/") ? at.shown : `${at.shown}/`;
      if (part === "") {
        // `dir//x` or a trailing `/`: only folders go on.
        if (await disk.isFolder(at.path)) next.push({ shown: prefix, path: at.path });
        continue;
      }
      if (!hasWildcard(part)) {
        const name = unescape(part);
        const path = `${at.path.replace(/\/$/, "")}/${name}`;
        if (last ? await disk.exists(path) : await disk.isFolder(path)) next.push({ shown: prefix + name, path });
        continue;
      }
      const matcher = segmentMatcher(part);
      for (const name of (await disk.names(at.path)) ?? []) {
        if (!matcher(name)) continue;
        const path = `${at.path.replace(/\/$/, "")}/${name}`;
        if (last || (await disk.isFolder(path))) next.push({ shown: prefix + name, path });
      }
      if (next.length > limit) return { tooMany: true };
    }
    found = next;
    if (found.length === 0) break;
  }
  const matches = found.map((f) => f.shown);
  return { matches: matches.sort(byBytes) };
}

/** One name of a pattern → a test of a name: `*`, `?`, `\x` (x itself); a leading `.` must be written. */
function segmentMatcher(part: string): (name: string) => boolean {
  let source = "";
  for (let i = 0; i < part.length; i++) {
    const ch = part[i] as string;
    if (ch === "\\" && i + 1 < part.length) source += escapeRegExp(part[++i] as string);
    else if (ch === "*") source += ".*";
    else if (ch === "?") source += ".";
    else source += escapeRegExp(ch);
  }
  const regex = new RegExp(`^${source}$`, "su");
  const dotWritten = part.startsWith(".") || part.startsWith("\\.");
  return (name) => (dotWritten || !name.startsWith(".")) && regex.test(name);
}

function unescape(part: string): string {
  return part.replace(/\\(.)/gsu, "$1");
}

function escapeRegExp(text: string): string {
  // Only syntax characters: a needless escape (`\-`) is an error in a `u` regex.
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Byte order of UTF-8 = code point order (what C and C.UTF-8 sort by), not UTF-16 order. */
function byBytes(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

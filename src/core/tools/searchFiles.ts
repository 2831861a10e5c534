/**
 * search_files (declared in core/toolDeclarations/searchFiles.ts): lines matching a text or a regular
 * expression, across a folder (optionally filtered by a glob) or in one file. Binary and huge files
 * are skipped and counted, and so are files that lead out of the searched folder and the workspace
 * through a symlink (VS Code's findFiles follows links by default): only the folder the user
 * approved, or the workspace, is read. A regular expression runs in a worker thread with a deadline
 * (regexLineMatcher.ts): an agent's catastrophic pattern must not freeze the extension host.
 */
import { DEFAULT_MATCHES, MAX_SEARCH_FILE_BYTES, searchFiles } from "../toolDeclarations";
import { implement } from "./implement";
import { insideWorkspace, isInside, resolveToolPath } from "./paths";
import { DEFAULT_REGEX_DEADLINE_MS, RegexAbortedError, RegexLineMatcher, RegexTimeoutError } from "./regexLineMatcher";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary } from "./text";
import { errorMessage } from "../util";

const MAX_FILES = 20_000;
const MAX_MATCH_LINE_CHARS = 500;

export const searchFilesTool = implement(searchFiles, (ports, options) => {
  const deadlineMs = options.search?.regexDeadlineMs ?? DEFAULT_REGEX_DEADLINE_MS;
  return async (args, context) => {
    let matcher: RegExp;
    const flags = args.case_sensitive === false ? "i" : "";
    try {
      matcher = new RegExp(args.regex ? args.pattern : escapeRegExp(args.pattern), flags);
    } catch (err) {
      return toolError(`pattern is not a valid regular expression (${errorMessage(err)}); fix it, or set regex: false to search for the text literally.`);
    }
    // Before anything is looked at: the answer must not depend on what exists outside.
    if (args.glob !== undefined && globLeavesFolder(args.glob)) {
      return toolError(
        `glob "${args.glob}" reaches out of the searched folder (.., an absolute or ~ path): give that folder as path instead (outside the ` +
          `workspace the user is asked).`,
      );
    }
    const resolved = await resolveToolPath(ports, context, args.path ?? ".", "Search");
    if (!resolved.ok) return resolved.result;
    const stat = await ports.files.stat(resolved.path);
    if (!stat) return toolError(`${resolved.path} does not exist.`);
    const files = stat.type === "directory" ? await ports.files.findFiles(resolved.path, args.glob, MAX_FILES) : [resolved.path];

    const max = args.max_results ?? DEFAULT_MATCHES;
    const matches: { path: string; line: number; text: string }[] = [];
    let searched = 0;
    let skippedBinary = 0;
    let skippedLarge = 0;
    let truncated = false;
    let skippedOutside = 0;
    // An agent's regex may backtrack for minutes: off this thread, with a deadline. Literal text cannot.
    const regexLines = args.regex ? new RegexLineMatcher(matcher.source, matcher.flags, deadlineMs, context.signal) : undefined;
    try {
      for (const file of files) {
        if (context.signal.aborted) break;
        // The file itself or a folder on its way may be a link to anywhere (~/.ssh/id_rsa). A link
        // to nothing counts as one leading out: what exists outside must not change the answer.
        const real = await ports.files.realpath(file).catch(() => undefined);
        if (real === undefined || (!isInside(real, resolved.path) && !(await insideWorkspace(ports.files, real)))) {
          skippedOutside++;
          continue;
        }
        const fileStat = await ports.files.stat(real);
        if (!fileStat || fileStat.type !== "file") continue;
        if (fileStat.size > MAX_SEARCH_FILE_BYTES) {
          skippedLarge++;
          continue;
        }
        let bytes: Uint8Array;
        try {
          bytes = await ports.files.readFile(real);
        } catch {
          continue;
        }
        if (looksBinary(bytes)) {
          skippedBinary++;
          continue;
        }
        searched++;
        const text = decodeText(bytes);
        const lines = text.split(/\r?\n/);
        // One more than still fits: a match past the limit says "truncated".
        const limit = max - matches.length + 1;
        let hits: number[];
        try {
          hits = regexLines ? await regexLines.matchingLines(text, limit) : literalMatches(matcher, lines, limit);
        } catch (err) {
          if (err instanceof RegexAbortedError) break;
          if (err instanceof RegexTimeoutError) {
            return toolError(
              `${err.message} on ${shownPath(ports, context.agentId, file)}, so the search was stopped; simplify it (avoid nested quantifiers such ` +
                `as (a+)+ or (a|a)*), anchor it, or search for literal text with regex: false.`,
              { matches, files_searched: searched },
            );
          }
          throw err;
        }
        for (const i of hits) {
          const line = lines[i] as string;
          if (matches.length >= max) {
            truncated = true;
            break;
          }
          matches.push({
            path: shownPath(ports, context.agentId, file),
            line: i + 1,
            text: line.length > MAX_MATCH_LINE_CHARS ? `${line.slice(0, MAX_MATCH_LINE_CHARS)} […]` : line,
          });
        }
        if (truncated) break;
      }
    } finally {
      regexLines?.close();
    }
    return ok({
      matches,
      files_searched: searched,
      ...(skippedBinary ? { skipped_binary_files: skippedBinary } : {}),
      ...(skippedLarge ? { skipped_large_files: skippedLarge } : {}),
      ...(skippedOutside
        ? {
            skipped_outside_files: skippedOutside,
            skipped_outside_note:
              `${skippedOutside} file${skippedOutside === 1 ? " was" : "s were"} not searched: symlinks leading out of the ` +
              `searched folder and the workspace (or to nothing). To search there, give that folder as path (the user is asked).`,
          }
        : {}),
      ...(files.length >= MAX_FILES ? { file_limit_reached: `only the first ${MAX_FILES} files were searched: narrow path or glob` } : {}),
      ...(truncated ? { truncated: true, message: `Stopped at ${max} matches: narrow the search with path or glob, or raise max_results.` } : {}),
    });
  };
});

/** A `..` name (also inside braces or after a separator), or a start at `/`, `\\` or `~`. */
export function globLeavesFolder(glob: string): boolean {
  return /^[/\\~]/.test(glob) || /(^|[/\\{,])\.\.($|[/\\},])/.test(glob) || /^[A-Za-z]:/.test(glob);
}

function literalMatches(matcher: RegExp, lines: string[], limit: number): number[] {
  const hits: number[] = [];
  for (let i = 0; i < lines.length && hits.length < limit; i++) if (matcher.test(lines[i] as string)) hits.push(i);
  return hits;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

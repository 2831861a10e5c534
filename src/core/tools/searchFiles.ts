/**
 * search_files: lines matching a text or a regular expression, across a folder (optionally
 * filtered by a glob) or in one file. Binary and huge files are skipped and counted, and so are
 * files that lead out of the searched folder and the workspace through a symlink (VS Code's
 * findFiles follows links by default): only the folder the user approved, or the workspace, is read.
 * A regular expression runs in a worker thread with a deadline (regexLineMatcher.ts): an agent's
 * catastrophic pattern must not freeze the extension host.
 */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { insideWorkspace, isInside, resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { DEFAULT_REGEX_DEADLINE_MS, RegexAbortedError, RegexLineMatcher, RegexTimeoutError } from "./regexLineMatcher";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary, MB } from "./text";
import { errorMessage } from "../util/errorMessage";

export const MAX_SEARCH_FILE_BYTES = 2 * MB;
const MAX_FILES = 20_000;
const DEFAULT_MATCHES = 200;
const MAX_MATCH_LINE_CHARS = 500;

const shape = {
  pattern: z
    .string()
    .min(1, "pattern is empty: give the text (or regex: true and a regular expression) to look for")
    .max(1000, "pattern is over 1000 characters")
    .describe("The text to find; a JavaScript regular expression when regex is true."),
  regex: z.boolean().optional().describe("Treat pattern as a JavaScript regular expression (no slashes, no flags). Default false: the text literally."),
  case_sensitive: z.boolean().optional().describe("Default true."),
  path: z
    .string()
    .min(1, 'path is empty: leave it out (or give ".") for the whole workspace folder')
    .optional()
    .describe("A folder to search in, or one file. Default: the workspace folder."),
  glob: z
    .string()
    .min(1, "glob is empty: leave it out to search every file")
    .optional()
    .describe('Only files whose path (relative to path) matches this glob, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  max_results: z
    .number()
    .int("max_results must be a whole number")
    .min(1, "max_results must be at least 1")
    .max(2000, "max_results can be at most 2000: narrow the search with path or glob")
    .optional()
    .describe(`Stop after this many matching lines. Default ${DEFAULT_MATCHES}.`),
};

export interface SearchOptions {
  /** How long the regex may take on one file before the search gives up. */
  regexDeadlineMs?: number;
}

export function searchFilesTool(ports: ToolPorts, options: SearchOptions = {}): ToolSpec<typeof shape> {
  const deadlineMs = options.regexDeadlineMs ?? DEFAULT_REGEX_DEADLINE_MS;
  return {
    name: "search_files",
    title: "Search files",
    description:
      `Finds the lines that contain a text (or match a regular expression with regex: true) in the workspace, or in one folder or file ` +
      `(path), optionally only files matching glob. Returns path, 1-based line and the line's text for each match; skips binary files and files over ` +
      `${MAX_SEARCH_FILE_BYTES / MB} MB, .git and node_modules, and symlinks that lead out of the searched folder and the workspace. ` +
      "truncated: true means max_results was reached.",
    inputSchema: shape,
    annotations: { readOnlyHint: true },
    display: (args) => `${args.pattern}${args.path ? ` in ${args.path}` : ""}${args.glob ? ` (${args.glob})` : ""}`,
    async handler(args, context) {
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
    },
  };
}

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

/** search_files, declared: lines matching a text or a regular expression, in a folder or one file. Handler: ../searchFiles.ts. */
import { MB } from "../util";
import { defineArcadiaTool } from "./arcadiaTool";

export const MAX_SEARCH_FILE_BYTES = 2 * MB;
export const DEFAULT_MATCHES = 200;

export const searchFiles = defineArcadiaTool({
  name: "search_files",
  title: "Search files",
  description:
    `Finds the lines that contain a text (or match a regular expression with regex: true) in the workspace, or in one folder or file ` +
    `(path), optionally only files matching glob. Returns path, 1-based line and the line's text for each match; skips binary files and files over ` +
    `${MAX_SEARCH_FILE_BYTES / MB} MB, .git and node_modules, and symlinks that lead out of the searched folder and the workspace. ` +
    "truncated: true means max_results was reached.",
  input: (z) => ({
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
  }),
  annotations: { readOnlyHint: true },
  words: { label: "Searching code: ", action: "search code: ", of: { text: "pattern" }, otherwise: { label: "Searching code", action: "search code" } },
  display: (args) => `${args.pattern}${args.path ? ` in ${args.path}` : ""}${args.glob ? ` (${args.glob})` : ""}`,
});

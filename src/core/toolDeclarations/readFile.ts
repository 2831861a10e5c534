/** read_file, declared: a text file's lines, a window at a time (offset/limit), with a size cap. Handler: ../readFile.ts. */
import { MB } from "../util";
import { defineArcadiaTool } from "./arcadiaTool";

export const MAX_READ_BYTES = 10 * MB;
export const DEFAULT_LINES = 2000;
export const MAX_LINE_CHARS = 2000;

export const readFile = defineArcadiaTool({
  name: "read_file",
  title: "Read a file",
  description:
    `Reads a text file from the workspace and returns a window of its lines (offset/limit), with total_lines and, when there is more, ` +
    `next_offset. Files over ${MAX_READ_BYTES / MB} MB and binary files are refused. Lines longer than ${MAX_LINE_CHARS} characters are cut.`,
  input: (z) => ({
    path: z
      .string()
      .min(1, 'path is empty: give the file to read, e.g. "src/index.ts"')
      .describe("The file to read, absolute or relative to the workspace folder."),
    offset: z
      .number()
      .int("offset must be a whole line number")
      .min(1, "offset is 1-based: the first line is 1")
      .optional()
      .describe("First line to return (1-based). Default 1."),
    limit: z
      .number()
      .int("limit must be a whole number of lines")
      .min(1, "limit must be at least 1")
      .max(10_000, "limit can be at most 10000 lines: read in windows")
      .optional()
      .describe(`How many lines to return. Default ${DEFAULT_LINES}.`),
  }),
  annotations: { readOnlyHint: true },
  words: { label: "Reading ", action: "read ", of: { file: "path" }, otherwise: { label: "Reading a file", action: "read a file" } },
  display: (args) => `${args.path}${args.offset ? `:${args.offset}` : ""}`,
});

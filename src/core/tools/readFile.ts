/** read_file: a text file's lines, a window at a time (offset/limit), with a size cap. */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { isPathChanged } from "./checkedOpen";
import { resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary, MB } from "./text";
import { errorMessage } from "../util/errorMessage";

export const MAX_READ_BYTES = 10 * MB;
const DEFAULT_LINES = 2000;
/** Enough for a long file window, small enough not to flood the agent's context. */
const MAX_RESULT_CHARS = 100_000;
const MAX_LINE_CHARS = 2000;

const shape = {
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
};

export function readFileTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "read_file",
    title: "Read a file",
    description:
      `Reads a text file from the workspace and returns a window of its lines (offset/limit), with total_lines and, when there is more, ` +
      `next_offset. Files over ${MAX_READ_BYTES / MB} MB and binary files are refused. Lines longer than ${MAX_LINE_CHARS} characters are cut.`,
    inputSchema: shape,
    annotations: { readOnlyHint: true },
    display: (args) => `${args.path}${args.offset ? `:${args.offset}` : ""}`,
    async handler(args, context) {
      const resolved = await resolveToolPath(ports, context, args.path, "Read");
      if (!resolved.ok) return resolved.result;
      const path = resolved.path;
      const stat = await ports.files.stat(path);
      if (!stat) return toolError(`${path} does not exist. Check the name with list_files or search_files.`);
      if (stat.type === "directory") return toolError(`${path} is a folder: use list_files to see what is in it.`);
      if (stat.size > MAX_READ_BYTES)
        return toolError(
          `${path} is ${(stat.size / MB).toFixed(1)} MB, over the ${MAX_READ_BYTES / MB} MB read_file limit: use search_files to find the part you need.`,
        );
      let bytes: Uint8Array;
      try {
        bytes = await ports.files.readFile(path);
      } catch (err) {
        // A link swapped in since the path was checked: nothing is read through it.
        if (isPathChanged(err))
          return toolError(`${path} was not read: ${err.message}. Check the path with list_files and read it again.`, { path_changed: true });
        return toolError(`Reading ${path} failed: ${errorMessage(err)}`);
      }
      if (looksBinary(bytes)) return toolError(`${path} is a binary file (${bytes.length} bytes); read_file reads text only.`);

      const lines = decodeText(bytes).split(/\r?\n/);
      if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
      const start = args.offset ?? 1;
      if (start > Math.max(lines.length, 1)) return toolError(`offset ${start} is past the end: ${path} has ${lines.length} lines.`);
      const want = args.limit ?? DEFAULT_LINES;
      const out: string[] = [];
      let chars = 0;
      let cut = false;
      for (let i = start - 1; i < lines.length && out.length < want; i++) {
        let line = lines[i] as string;
        if (line.length > MAX_LINE_CHARS) {
          line = `${line.slice(0, MAX_LINE_CHARS)} [… line cut at ${MAX_LINE_CHARS} characters]`;
          cut = true;
        }
        if (chars + line.length > MAX_RESULT_CHARS && out.length > 0) break;
        out.push(line);
        chars += line.length + 1;
      }
      const end = start + out.length - 1;
      return ok({
        path: shownPath(ports, context.agentId, path),
        start_line: start,
        end_line: end,
        total_lines: lines.length,
        ...(end < lines.length ? { next_offset: end + 1 } : {}),
        ...(cut ? { long_lines_cut: true } : {}),
        content: out.join("\n"),
      });
    },
  };
}
